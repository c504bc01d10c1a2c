/**
 * Personal data a URL would carry to the client (and its model): e-mail addresses, phone numbers
 * and people's names. The signals are the parameter a value is in (`phone`, `last_name`...) and
 * the shape of the value itself (`+44 20 7946 0958`, `(555) 123-4567`); a bare number or a word
 * alone is not taken for one, since ids, dates and slugs look the same. Measured on a corpus of
 * URLs with and without personal data (`url-personal-data.test.ts`).
 */

/** What kind of personal data a URL carries. */
export type PersonalDataKind = 'an email address' | 'a phone number' | "a person's name";

const EMAIL = /[^\s@/?#&=:;,]+@[^\s@/?#&=:;,]+\.[a-z]{2,}/i;

/** A number written as a phone number: international (`+` and 7 to 15 digits) or grouped 3-3-4. */
const INTERNATIONAL_PHONE = /(?:^|[^\w+])\+\d[\d\s().-]{5,20}\d(?![\w])/;
const GROUPED_PHONE = /(?:^|[^\w-])\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?![\w-])/;

/** Words of a parameter name that say its value is a phone number. */
const PHONE_WORDS = new Set([
  'phone',
  'telephone',
  'tel',
  'mobile',
  'cell',
  'cellphone',
  'msisdn',
  'fax',
  'whatsapp',
]);
/** Words that, beside `name`, say it names a person. */
const PERSON_WORDS = new Set([
  'first',
  'last',
  'full',
  'given',
  'family',
  'middle',
  'maiden',
  'sur',
  'display',
  'nick',
  'real',
  'legal',
  'contact',
  'customer',
  'client',
  'patient',
  'recipient',
  'sender',
  'holder',
  'cardholder',
  'guest',
  'attendee',
  'member',
  'owner',
  'person',
  'applicant',
  'employee',
  'student',
  'parent',
  'child',
]);
/** Words of a parameter name that say its value is an identifier, whatever digits it is written in. */
const ID_WORDS = new Set([
  'id',
  'sku',
  'ref',
  'reference',
  'order',
  'ticket',
  'invoice',
  'part',
  'serial',
  'isbn',
  'ean',
  'upc',
  'tracking',
  'case',
  'version',
  'build',
  'range',
]);
/** Parameter names that are a person's name by themselves. */
const NAME_PARAMS = new Set([
  'fullname',
  'firstname',
  'lastname',
  'surname',
  'givenname',
  'familyname',
  'fname',
  'lname',
]);

/** The words of a parameter name: `billingPhoneNumber`, `billing_phone-number` → billing, phone, number. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word !== '');
}

/** Letters (any script), with the spaces, hyphens, apostrophes and dots of names; no digits. */
const NAME_TEXT = /^[\p{L}][\p{L}\p{M}' .-]{0,78}[\p{L}.]$/u;
/** Two to four words each written with a capital: "Ann Smith", "José García-Lopez". */
const FULL_NAME = /^\p{Lu}[\p{L}\p{M}'-]+(?:\s+\p{Lu}[\p{L}\p{M}'.-]*){1,3}$/u;

function kindOfParameter(name: string, value: string): PersonalDataKind | undefined {
  const words = wordsOf(name);
  const joined = words.join('');
  if (words.some((word) => PHONE_WORDS.has(word)) && (value.match(/\d/g)?.length ?? 0) >= 7)
    return 'a phone number';
  const personName =
    NAME_PARAMS.has(joined) ||
    (words.includes('name') && words.some((word) => PERSON_WORDS.has(word))) ||
    words.some((word) => NAME_PARAMS.has(word));
  if (personName && NAME_TEXT.test(value.trim())) return "a person's name";
  // `name` alone names anything (a file, a setting): only a name written as one counts.
  if (joined === 'name' && FULL_NAME.test(value.trim())) return "a person's name";
  return undefined;
}

function kindOfText(text: string): PersonalDataKind | undefined {
  if (EMAIL.test(text)) return 'an email address';
  if (INTERNATIONAL_PHONE.test(text)) {
    const digits = (INTERNATIONAL_PHONE.exec(text)?.[0].match(/\d/g) ?? []).length;
    if (digits >= 7 && digits <= 15) return 'a phone number';
  }
  if (GROUPED_PHONE.test(text)) return 'a phone number';
  return undefined;
}

/** The kinds of personal data `url` carries, in the order found (each once). */
export function personalDataIn(url: URL): PersonalDataKind[] {
  const found = new Set<PersonalDataKind>();
  if (url.protocol === 'tel:' || url.protocol === 'sms:') found.add('a phone number');
  const fragment = url.hash.startsWith('#') ? url.hash.slice(1) : '';
  for (const [name, value] of [...url.searchParams, ...new URLSearchParams(fragment)]) {
    const identifier = wordsOf(name).some((word) => ID_WORDS.has(word));
    const kind = kindOfParameter(name, value) ?? (identifier ? undefined : kindOfText(value));
    if (kind) found.add(kind);
  }
  for (const segment of url.pathname.split('/')) {
    const kind = kindOfText(safeDecode(segment));
    if (kind) found.add(kind);
  }
  const whole = kindOfText(safeDecode(`${url.search}${url.hash}`));
  if (whole === 'an email address') found.add(whole);
  return [...found];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
