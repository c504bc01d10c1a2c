// Strict checks for the four string formats a form may ask for. Each takes any string and answers
// true or false; none throws.

/**
 * Length in characters as a person counts them (Unicode code points, not UTF-16 units).
 *
 * @example
 * codePointLength('😀'); // 1 ('😀'.length is 2)
 */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * An email address of the everyday shape `local@domain`: a dot-atom local part (no quoting, no
 * spaces) and a domain of at least two valid DNS labels whose last label is not all digits.
 *
 * @example
 * isEmail('ann@example.com'); // true
 * isEmail('ann@localhost'); // false
 */
export function isEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

// RFC 3986 allows only these ASCII characters in a URI (reserved, unreserved and '%').
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * An absolute URI: a scheme, only URI characters (no spaces, no raw non-ASCII), and parseable by `URL`.
 *
 * @example
 * isUri('https://example.com/a?b=c'); // true
 * isUri('example.com'); // false (no scheme)
 */
export function isUri(text: string): boolean {
  if (!SCHEME.test(text) || !URI_CHARACTERS.test(text)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return false;
  return URL.canParse(text);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * A full date `YYYY-MM-DD` that exists on the calendar (RFC 3339 `full-date`).
 *
 * @example
 * isDate('2024-02-29'); // true
 * isDate('2023-02-29'); // false
 */
export function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  return isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 `date-time`: a real date, `T`, a time of day, optional fraction, and a `Z` or
 * `±hh:mm` offset (a local time without an offset is refused). A leap second (`:60`) is allowed.
 *
 * @example
 * isDateTime('2026-07-28T14:30:00+02:00'); // true
 * isDateTime('2026-07-28T14:30:00'); // false (no offset)
 */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.map(Number);
  if (!isCalendarDate(year!, month!, day!)) return false;
  if (hour! > 23 || minute! > 59 || second! > 60) return false;
  if (match[7] === undefined) return true;
  return offsetHour! <= 23 && offsetMinute! <= 59;
}
