import punycode from 'punycode.js';
import type { UrlWarning } from './types.js';
import { quote } from './words.js';

/** The Unicode form of an ASCII host, as a person reads it; the host itself if it cannot be decoded. */
export function toUnicodeHost(host: string): string {
  if (!host.includes('xn--')) return host;
  try {
    return punycode.toUnicode(host);
  } catch {
    return host;
  }
}

/** A `punycode` warning showing both forms when the host has internationalized labels. */
export function checkPunycode(host: string, unicodeHost: string): UrlWarning | null {
  if (unicodeHost === host) return null;
  return {
    code: 'punycode',
    message:
      'The address uses letters or symbols from outside the basic Latin alphabet: it reads ' +
      `${quote(unicodeHost)}, but the browser looks it up as ${quote(host)}. Make sure this is the site you expect.`,
  };
}
