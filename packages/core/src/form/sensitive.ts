import { HARD, isBreak, type Token, tokenize } from './secret-tokens.js';
import {
  ANCHORS,
  ATTRIBUTES,
  AUXILIARIES,
  DETERMINERS,
  FLAG_SUFFIXES,
  IMPERATIVE_LEADS,
  INVENT_VERBS,
  INVENTED,
  LABEL_NEXT,
  NEGATIONS,
  NOT_SECRET_PIN,
  OTHER_VERBS,
  PARTIAL,
  PARTICLES,
  PHRASE_REACH,
  PIN_OF_THINGS,
  PIN_VERB_OBJECTS,
  POSTAL,
  PREPOSITIONS,
  PRONOUN_VERBS,
  QUESTION_WORDS,
  REQUEST_BLOCKERS,
  REQUEST_VERBS,
  SECRET_PHRASES,
  SUBJECT_PRONOUNS,
  WEAK_HEAD_NEXT,
} from './secret-words.js';
import type { FieldSchema, RequestedSchema } from './types.js';

/** A field whose name or title looks like it asks for a secret. */
export interface SensitiveField {
  readonly name: string;
  /** What it seems to ask for, e.g. "a password". */
  readonly looksLike: string;
}

/**
 * Lists the fields of a form that ask for a secret, judged by their names, titles and descriptions.
 * A field named or titled like a secret asks for it (`pw`, `mfaCode`, `x-api-key`, "Card number");
 * one that only names something about a secret does not ("Password policy accepted?", "API key
 * name", "Token count"), nor does a yes/no or a pick from fixed options, which cannot carry a secret
 * the person types. Servers refuse to send such a form; hosts may warn the person before they type.
 *
 * @example
 * sensitiveFields({ type: 'object', properties: { password: { type: 'string' } } });
 * // [{ name: 'password', looksLike: 'a password' }]
 */
export function sensitiveFields(schema: RequestedSchema): SensitiveField[] {
  const found: SensitiveField[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (!canCarryTypedText(field)) continue;
    const texts = [name, field.title, field.description].filter((text) => typeof text === 'string');
    // What one of them says is context for the others ("pin_code" titled "Post office PIN code").
    const tokenized = texts.map((text) => tokenize(text));
    const words = new Set(tokenized.flat().map((token) => token.word));
    let looksLike: string | undefined;
    texts.forEach((text, index) => {
      // The name and the title label what the person types (a title that asks a question does not);
      // a description is prose about it.
      const label = index === 0 || (text === field.title && !text.trimEnd().endsWith('?'));
      looksLike ??= judge(text, { words, texts: tokenized, label });
    });
    if (looksLike) found.push({ name, looksLike });
  }
  return found;
}

/**
 * What secret a piece of text asks for ("a key" for "Please paste your GitHub API key"), or
 * `undefined` when it asks for none, including when it only mentions one ("Send you a password reset
 * link?", "Did you forget your password?"). A text asks when it names a secret as a label ("API key",
 * "Your Wi-Fi password, please"), requests one ("Enter", "Paste", "Share", "Could you give me..."),
 * prompts for its value ("What is your PIN?") or says it is needed ("API key required"). Servers
 * apply it to a form's message, and {@link sensitiveFields} to each field's name, title and
 * description.
 *
 * @example
 * secretAskedIn('Please paste your GitHub API key'); // 'a key'
 * secretAskedIn('Enter the 6-digit code we texted you'); // 'a PIN or one-time code'
 * secretAskedIn('Send you a password reset link?'); // undefined
 */
export function secretAskedIn(text: string): string | undefined {
  return judge(text, PROSE);
}

/** What goes with a text: for a field, its other texts, and whether this one is its name or title. */
interface Context {
  /** The words of all the field's texts (its name, title and description). */
  readonly words: ReadonlySet<string>;
  readonly texts: readonly (readonly Token[])[];
  /** The text labels what the person types (a field's name or title), rather than talking about it. */
  readonly label: boolean;
}

const PROSE: Context = { words: new Set(), texts: [], label: false };

function judge(text: string, context: Context): string | undefined {
  const tokens = tokenize(text);
  const found = findSecrets(tokens, context);
  if (found.length === 0) return undefined;
  const identifier = !/\s/.test(text.trim());
  for (const secret of found) {
    if (negated(tokens, secret.start)) continue;
    if (identifier ? namedInIdentifier(tokens, secret) : askedInProse(tokens, secret, context.label))
      return secret.looksLike;
  }
  return identifier ? undefined : askedAsPronoun(tokens, found);
}

/** Strings and numbers carry what the person types; yes/no and fixed options never do. */
function canCarryTypedText(field: FieldSchema): boolean {
  if (typeof field !== 'object' || field === null) return false;
  if (field.type === 'boolean' || field.type === 'array') return false;
  return !('enum' in field) && !('oneOf' in field) && !('const' in field);
}

/** Each phrase as a sticky pattern, to be tried at the start of every word. */
const STICKY_PHRASES = SECRET_PHRASES.map((phrase) => ({
  phrase,
  pattern: new RegExp(phrase.pattern.source, 'y'),
}));

interface Found {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly looksLike: string;
  readonly weak: boolean;
}

/** Every place a secret is named as the thing itself (not "password policy", "GPIO pin", "Secret Santa"). */
function findSecrets(tokens: readonly Token[], context: Context): Found[] {
  const near = new Set<number>();
  tokens.forEach(({ word }, index) => {
    if (!ANCHORS.has(word)) return;
    for (let start = Math.max(0, index - PHRASE_REACH); start <= index; start++) near.add(start);
  });
  if (near.size === 0) return [];
  const offsets: number[] = [];
  let offset = 0;
  for (const token of tokens) {
    offsets.push(offset);
    offset += token.word.length + 1;
  }
  const ends = new Map(offsets.map((at, index) => [at + tokens[index]!.word.length, index + 1]));
  const joined = tokens.map((token) => token.word).join(' ');
  const found: Found[] = [];
  for (const { phrase, pattern } of STICKY_PHRASES) {
    for (const start of near) {
      // Tried at every word near an anchor, so matches may overlap ("wallet seed phrase" holds "seed phrase").
      pattern.lastIndex = offsets[start]!;
      const match = pattern.exec(joined);
      if (match === null) continue;
      const end = ends.get(offsets[start]! + match[0].length);
      if (end === undefined) continue;
      if (phrase.notAfter?.has(tokens[start - 1]?.word ?? '')) continue;
      if (phrase.alone && !aloneOnField(tokens, start, end, context)) continue;
      const secret = { start, end, looksLike: phrase.looksLike, weak: phrase.weak === true };
      if (isHead(tokens, secret) && !otherMeaning(tokens, secret, context)) found.push(secret);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The secret is what the words name, not a modifier of the next word ("API key name", "token count"). */
function isHead(tokens: readonly Token[], { end, weak }: Found): boolean {
  const next = tokens[end];
  if (next?.colon && !isBreak(tokens[end + 1])) return false;
  if (next === undefined || isBreak(next)) return true;
  if (ATTRIBUTES.has(next.word)) return false;
  if (['a', 'an', 'the'].includes(next.word) && ATTRIBUTES.has(tokens[end + 1]?.word ?? '')) return false;
  return !weak || WEAK_HEAD_NEXT.has(next.word);
}

/**
 * A word that names a secret only alone (`pass`, "Card") is the field's whole label (after "your" or
 * "the" at most), and none of the field's other texts makes it another kind of thing: "Day pass",
 * "Card message", "the birthday card".
 */
function aloneOnField(tokens: readonly Token[], start: number, end: number, context: Context): boolean {
  if (!context.label || end - start !== 1) return false;
  if (tokens.some((token, index) => index !== start && !isBreak(token) && !DETERMINERS.has(token.word)))
    return false;
  const word = tokens[start]!.word;
  return context.texts.every((text) =>
    text.every((token, index) => {
      if (token.word !== word) return true;
      const before = text[index - 1];
      const qualified = before !== undefined && !isBreak(before) && !DETERMINERS.has(before.word);
      return !qualified && isBreak(text[index + 1]);
    }),
  );
}

/** A pin of hardware or a map, "pin" the verb, a postal PIN code, or a card's printed last four digits. */
function otherMeaning(tokens: readonly Token[], { start, end, looksLike }: Found, context: Context): boolean {
  const first = tokens[start]!;
  if (first.word === 'pin') {
    const before = [tokens[start - 1]?.word ?? '', tokens[start - 2]?.word ?? ''];
    if (before.some((word) => NOT_SECRET_PIN.has(word))) return true;
    if ([...context.words].some((word) => PIN_OF_THINGS.has(word))) return true;
    const next = tokens[end]?.word ?? '';
    const clauseStart = isBreak(tokens[start - 1]) || IMPERATIVE_LEADS.has(before[0]!) || before[0] === 'to';
    if (!first.caps && clauseStart && PIN_VERB_OBJECTS.has(next)) return true;
    const postal = (word: string) => POSTAL.has(word);
    if (end - start > 1 && (tokens.some((token) => postal(token.word)) || [...context.words].some(postal)))
      return true;
  }
  if (looksLike === 'payment card details' || looksLike === 'bank account details') {
    if (PARTIAL.has(tokens[start - 1]?.word ?? '')) return true;
    for (let index = Math.max(0, start - 6); index < start; index++) {
      if (tokens[index]!.word === 'last' && ['4', 'four'].includes(tokens[index + 1]?.word ?? ''))
        return true;
    }
  }
  return false;
}

/** "Never share your PIN", "Not your password", "We never ask for your password". */
function negated(tokens: readonly Token[], start: number): boolean {
  for (let index = start - 1; index >= Math.max(0, start - 6); index--) {
    const token = tokens[index]!;
    if (isBreak(token)) return false;
    if (NEGATIONS.has(token.word)) return true;
  }
  return false;
}

/** Verbs, auxiliaries, question words, pronouns and prepositions: what a bare label does not contain. */
function notLabelWord(word: string): boolean {
  return OTHER_VERBS.has(word) || REQUEST_VERBS.has(word) || INVENT_VERBS.has(word) || notPhraseWord(word);
}

/**
 * An identifier (`new_password`, `x-api-key`) names what the field holds, whatever words stand before
 * the secret: `store_password`, `show_pin` and `required_token` hold a password, a PIN and a token
 * (the words could be verbs, but a field the person types into is named by what is typed). Only a
 * yes/no shape says otherwise: an auxiliary or question word before it (`has_password`, `is_secret`)
 * or a flag word after it (`mfa_required`).
 */
function namedInIdentifier(tokens: readonly Token[], { start, end }: Found): boolean {
  if (FLAG_SUFFIXES.has(tokens[end]?.word ?? '')) return false;
  return !tokens.slice(0, start).some(({ word }) => AUXILIARIES.has(word) || QUESTION_WORDS.has(word));
}

/** `label`: the text is a field's title, which names what the person types ("Store password"). */
function askedInProse(tokens: readonly Token[], secret: Found, label: boolean): boolean {
  return (
    requested(tokens, secret) ||
    promptedWithWhat(tokens, secret) ||
    needed(tokens, secret) ||
    labelled(tokens, secret, label)
  );
}

/** "Enter your password", "Could you share your API key?", "Choose a 4-digit PIN", "Reply with the code". */
function requested(tokens: readonly Token[], { start, looksLike, weak }: Found): boolean {
  for (let index = start - 1; index >= Math.max(0, start - 9); index--) {
    const { word } = tokens[index]!;
    if (word === HARD) return false;
    const asks = REQUEST_VERBS.has(word) || (INVENT_VERBS.has(word) && INVENTED.has(looksLike));
    if (asks && imperative(tokens, index) && tokens[index + 1]?.word !== 'you') {
      return (
        !weak || tokens.slice(Math.max(index, start - 3), start).some(({ word }) => DETERMINERS.has(word))
      );
    }
    const particle = PARTICLES.has(word) && REQUEST_VERBS.has(tokens[index - 1]?.word ?? '');
    if (REQUEST_BLOCKERS.has(word) && !particle) return false;
  }
  return false;
}

/**
 * The verb at `index` asks the person to do it: it starts its clause (after "please", "then", ...)
 * or follows "can you", "you need to", "need you to"...
 */
function imperative(tokens: readonly Token[], index: number): boolean {
  let before = index - 1;
  let joined = false;
  while (before >= 0 && IMPERATIVE_LEADS.has(tokens[before]!.word)) {
    joined ||= ['and', 'then', 'or'].includes(tokens[before]!.word);
    before--;
  }
  if (before < 0 || isBreak(tokens[before])) return true;
  // "Create one at ... and paste it here": a second verb of a clause that starts with a verb.
  if (joined) {
    const first = tokens[clauseStart(tokens, before, false)]!.word;
    if (OTHER_VERBS.has(first) || REQUEST_VERBS.has(first) || INVENT_VERBS.has(first)) return true;
  }
  const [w2, w1, w0] = [tokens[before - 2]?.word, tokens[before - 1]?.word, tokens[before]!.word];
  if (w0 === 'you' && ['can', 'could', 'would', 'will', 'may'].includes(w1 ?? '')) return true;
  if (w1 === 'you' && ['must', 'should', 'can', 'may'].includes(w0)) return true;
  if (w0 === 'to' && ['need', 'needs', 'have'].includes(w1 ?? '')) return true;
  return w0 === 'to' && w1 === 'you' && ['need', 'want', 'like'].includes(w2 ?? '');
}

/** "What is your new password?", "What's the 2FA code from your authenticator app?" */
function promptedWithWhat(tokens: readonly Token[], { start, weak }: Found): boolean {
  if (weak) return false;
  let index = clauseStart(tokens, start, true);
  while (IMPERATIVE_LEADS.has(tokens[index]?.word ?? '')) index++;
  if (tokens[index]?.word !== 'what') return false;
  index++;
  if (['is', 'are', 'was'].includes(tokens[index]?.word ?? '')) index++;
  if (start - index > 5) return false;
  return nounPhrase(tokens, index, start, false);
}

/** "I need your GitHub token", "Your password is required", "API key required". */
function needed(tokens: readonly Token[], { start, end }: Found): boolean {
  const after = tokens[end]?.word === 'is' || tokens[end]?.word === 'are' ? end + 1 : end;
  if (['required', 'needed', 'necessary'].includes(tokens[after]?.word ?? '')) {
    const first = tokens[clauseStart(tokens, start, true)]?.word ?? '';
    if (!AUXILIARIES.has(first) && !QUESTION_WORDS.has(first)) return true;
  }
  for (let index = start - 1; index >= Math.max(0, start - 5); index--) {
    const { word } = tokens[index]!;
    if (word === 'need') {
      const subject = tokens[index - 1]?.word === 'will' ? tokens[index - 2]?.word : tokens[index - 1]?.word;
      return (subject === 'i' || subject === 'we') && nounPhrase(tokens, index + 1, start, false);
    }
    if (isBreak(tokens[index])) return false;
  }
  return false;
}

/**
 * A label for the value: "API key", "Your store password, please", "The API key from your dashboard",
 * and in a field's title (`title`) also "Store password".
 */
function labelled(tokens: readonly Token[], { start, end }: Found, title: boolean): boolean {
  const from = clauseStart(tokens, start, false);
  if (start - from > 5) return false;
  if (!nounPhrase(tokens, from, start, title)) return false;
  const next = tokens[end];
  if (next?.colon && !isBreak(tokens[end + 1])) return false;
  if (next === undefined || isBreak(next)) return true;
  if (!LABEL_NEXT.has(next.word)) return false;
  // "The password you use to sign in" is a label; "The password you entered is too short" is not.
  for (let index = end; index < tokens.length && !isBreak(tokens[index]); index++) {
    if (AUXILIARIES.has(tokens[index]!.word)) return false;
  }
  return true;
}

/**
 * The words from `from` up to the secret at `start` can open a noun phrase that names it. After a
 * determiner every word is a modifier, whatever else it could be: "your store password", "the stored
 * PIN", "your required token". A word before the determiner makes a verb phrase instead ("Name your
 * new API key", "Forgot your password?"). With no determiner, a word that can be a verb is read as one
 * in prose ("Store password?" asks whether to store it), and as a modifier in a field's title
 * (`verbsModify`), which names what the person types into the field.
 */
function nounPhrase(tokens: readonly Token[], from: number, start: number, verbsModify: boolean): boolean {
  let index = from;
  while (index < start && IMPERATIVE_LEADS.has(tokens[index]!.word)) index++;
  if (DETERMINERS.has(tokens[index]?.word ?? '')) {
    verbsModify = true;
    index++;
  }
  for (; index < start; index++) {
    const { word } = tokens[index]!;
    if (DETERMINERS.has(word) || notPhraseWord(word)) return false;
    if (!verbsModify && notLabelWord(word)) return false;
  }
  return true;
}

/** Words that end a noun phrase or make a clause a question: no modifier of a secret is one. */
function notPhraseWord(word: string): boolean {
  return (
    AUXILIARIES.has(word) ||
    QUESTION_WORDS.has(word) ||
    SUBJECT_PRONOUNS.has(word) ||
    PREPOSITIONS.has(word) ||
    NEGATIONS.has(word)
  );
}

/** "We texted you a 6-digit code. Enter it below." */
function askedAsPronoun(tokens: readonly Token[], found: readonly Found[]): string | undefined {
  for (let index = 0; index < tokens.length; index++) {
    if (!PRONOUN_VERBS.has(tokens[index]!.word) || !imperative(tokens, index)) continue;
    if (!['it', 'them', 'this', 'that'].includes(tokens[index + 1]?.word ?? '')) continue;
    const named = found.find(
      (secret) => !secret.weak && secret.end <= index && !negated(tokens, secret.start),
    );
    if (named) return named.looksLike;
  }
  return undefined;
}

/** Where the clause holding `index` starts: after the last `.` (`hardOnly`), or after the last `.` or `,`. */
function clauseStart(tokens: readonly Token[], index: number, hardOnly: boolean): number {
  let from = index;
  while (from > 0) {
    const previous = tokens[from - 1]!;
    if (hardOnly ? previous.word === HARD : isBreak(previous)) break;
    from--;
  }
  return from;
}
