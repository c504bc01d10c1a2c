/** One word of a text the secret guardrail reads, lower-cased, or a clause break. */
export interface Token {
  /** The word in lower case; `.` ends a sentence or clause, `,` is a softer break (a comma, a bracket). */
  readonly word: string;
  /** Written in capitals ("PIN"), which tells a noun from a verb ("Pin this chat"). */
  readonly caps: boolean;
  /** A `.` that was a colon: "API key: sk-…1234" shows a value where "API key:" asks for one. */
  readonly colon?: true;
}

export const HARD = '.';
export const SOFT = ',';

const HARD_BREAK: Token = { word: HARD, caps: false };
const SOFT_BREAK: Token = { word: SOFT, caps: false };
const COLON_BREAK: Token = { word: HARD, caps: false, colon: true };

/**
 * Splits a field name, title, description or message into words: identifiers come apart at case
 * changes and separators (`mfaCode`, `x-api-key`, `APIKey`, `cvv2`), contractions lose their tails
 * (`what's` is `what`, `don't` is `do not`), and sentence and clause ends become break tokens. One
 * pass over the text: a server reads every message it sends.
 *
 * @example
 * tokenize('mfaCode').map((token) => token.word); // ['mfa', 'code']
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (isWordChar(text, index, code)) {
      let end = index + 1;
      while (end < length && isWordChar(text, end, text.charCodeAt(end))) end++;
      index = end + addWord(tokens, text.slice(index, end), text, end);
      continue;
    }
    const next = text.charCodeAt(index + 1);
    if (code === 10 || code === 13) addBreak(tokens, HARD_BREAK);
    else if (SENTENCE_END.has(code) && (index + 1 === length || isSpace(next)))
      addBreak(tokens, code === 58 ? COLON_BREAK : HARD_BREAK);
    else if (CLAUSE_MARK.has(code)) addBreak(tokens, SOFT_BREAK);
    else if (code === 45 && isSpace(text.charCodeAt(index - 1)) && isSpace(next))
      addBreak(tokens, SOFT_BREAK);
    index++;
  }
  return tokens;
}

export function isBreak(token: Token | undefined): boolean {
  return token === undefined || token.word === HARD || token.word === SOFT;
}

const SENTENCE_END = new Set([...'.!?;:'].map((char) => char.charCodeAt(0)));
const CLAUSE_MARK = new Set([...',()[]{}—–'].map((char) => char.charCodeAt(0)));
const APOSTROPHES = new Set([39, 0x2019]);
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

function isWordChar(text: string, index: number, code: number): boolean {
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return LETTER_OR_NUMBER.test(text[index]!);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0;
}

function addBreak(tokens: Token[], token: Token): void {
  const last = tokens.at(-1);
  if (last === undefined) return;
  if (isBreak(last)) {
    if (token.word === HARD && last.word !== HARD) tokens[tokens.length - 1] = token;
    return;
  }
  tokens.push(token);
}

/**
 * Adds `word` (which ends at `end` in `text`) and returns how many characters after it a contraction
 * took: `don't` adds `do`, `not`; `what's` adds `what` (the tail says nothing about secrets).
 */
function addWord(tokens: Token[], word: string, text: string, end: number): number {
  if (APOSTROPHES.has(text.charCodeAt(end))) {
    const tail = /^(t|s|ll|re|ve|d|m)(?![\p{L}\p{N}])/iu.exec(text.slice(end + 1, end + 4));
    if (tail) {
      if (tail[1]!.toLowerCase() === 't' && /n$/i.test(word)) {
        const lower = word.toLowerCase();
        const verb = lower === 'can' ? 'can' : lower === 'won' ? 'will' : word.slice(0, -1);
        addParts(tokens, verb);
        tokens.push({ word: 'not', caps: false });
      } else addParts(tokens, word);
      return 1 + tail[1]!.length;
    }
  }
  addParts(tokens, word);
  return 0;
}

/** `mfaCode` → `mfa Code`, `APIKey` → `API Key`, `cvv2` → `cvv 2`; `GitHub` and `2FA` stay whole. */
function addParts(tokens: Token[], word: string): void {
  if (plainWord(word)) {
    tokens.push({ word: word.toLowerCase(), caps: word.length === 1 && word !== word.toLowerCase() });
    return;
  }
  let split = word.replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
  if (/^\p{Ll}/u.test(word)) split = split.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2');
  for (const part of split.split(' ')) {
    const letters = /^(\p{L}+)(\p{N}+)$/u.exec(part);
    for (const piece of letters ? [letters[1]!, letters[2]!] : [part]) {
      tokens.push({
        word: piece.toLowerCase(),
        caps: /\p{Lu}/u.test(piece) && piece === piece.toUpperCase(),
      });
    }
  }
}

/** ASCII letters, lower case after the first: nothing to split (the common case, checked without a regex). */
function plainWord(word: string): boolean {
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    const lower = code >= 97 && code <= 122;
    if (!lower && !(index === 0 && code >= 65 && code <= 90)) return false;
  }
  return true;
}
