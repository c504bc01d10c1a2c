import type { RequestedSchema } from './types.js';

/**
 * Names and titles that ask for a secret. Form mode must never carry passwords, API keys, access
 * tokens or payment credentials (the spec's MUST); those go through URL mode. The patterns are
 * deliberately specific (`password`, `api key`, `card number`, ...) so ordinary fields such as
 * "token count" or "pin code" of a post office do not trip them.
 */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/pass(?:word|phrase|wd)|\bpwd\b/i, 'a password'],
  [/\bsecret\b|client[\s_-]?secret/i, 'a secret'],
  [/api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|secret[\s_-]?key/i, 'a key'],
  [/(?:access|auth|bearer|refresh|session|api)[\s_-]?token/i, 'a token'],
  [
    /card[\s_-]?(?:number|no\b)|credit[\s_-]?card|\bcvc\b|\bcvv\b|security[\s_-]?code/i,
    'payment card details',
  ],
  [/\biban\b|account[\s_-]?number|routing[\s_-]?number/i, 'bank account details'],
  [/\bssn\b|social[\s_-]?security/i, 'a social security number'],
  [
    /\bpin\b(?![\s_-]?code)|one[\s_-]?time[\s_-]?(?:code|password)|\botp\b|2fa|mfa[\s_-]?code/i,
    'a PIN or one-time code',
  ],
];

/** A field whose name or title looks like it asks for a secret. */
export interface SensitiveField {
  readonly name: string;
  /** What it seems to ask for, e.g. "a password". */
  readonly looksLike: string;
}

/**
 * Lists the fields of a form that look like they ask for a secret, judged by their names, titles and
 * descriptions. Servers refuse to send such a form; hosts may warn the person before they type.
 *
 * @example
 * sensitiveFields({ type: 'object', properties: { password: { type: 'string' } } });
 * // [{ name: 'password', looksLike: 'a password' }]
 */
export function sensitiveFields(schema: RequestedSchema): SensitiveField[] {
  const found: SensitiveField[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const looksLike = secretAskedIn([name, field.title ?? '', field.description ?? ''].join(' '));
    if (looksLike) found.push({ name, looksLike });
  }
  return found;
}

/**
 * What secret a piece of text seems to ask for ("a key" for "Please paste your GitHub API key"), or
 * `undefined`. The same patterns as {@link sensitiveFields}; servers apply it to a form's message too.
 *
 * @example
 * secretAskedIn('Please paste your GitHub API key'); // 'a key'
 */
export function secretAskedIn(text: string): string | undefined {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
  return SECRET_PATTERNS.find(([pattern]) => pattern.test(spaced))?.[1];
}
