import type { UrlWarning } from './types.js';
import { quote } from './words.js';

/** A `userinfo` warning when a user name (and maybe a password) stands before '@' in front of the host. */
export function checkUserinfo(url: URL, unicodeHost: string): UrlWarning | null {
  if (url.username === '' && url.password === '') return null;
  const what = url.password === '' ? 'a user name' : 'a user name and password';
  const shown = url.username === '' ? '' : ` (${quote(url.username)})`;
  return {
    code: 'userinfo',
    message:
      `The address carries ${what}${shown} before an '@' sign. That part is not where it leads: ` +
      `it leads to ${quote(unicodeHost)}.`,
  };
}

/** A `port` warning when an explicit, non-default port is given for a host other than this computer. */
export function checkPort(port: string, unicodeHost: string): UrlWarning | null {
  if (port === '') return null;
  return {
    code: 'port',
    message:
      `The address asks for the special port ${port} on ${quote(unicodeHost)}. Ordinary websites do not need ` +
      'one; make sure you expected it.',
  };
}

/** A `scheme-not-allowed` or `insecure-http` warning for anything that is not https (or http on loopback). */
export function checkScheme(scheme: string, loopback: boolean): UrlWarning | null {
  if (scheme === 'https' || (scheme === 'http' && loopback)) return null;
  if (scheme === 'http') {
    return {
      code: 'insecure-http',
      message:
        "The address starts with 'http:', which is not encrypted: others on the network could read or " +
        "change the page. Only 'https:' addresses are opened.",
    };
  }
  return {
    code: 'scheme-not-allowed',
    message: `Addresses starting with ${quote(`${scheme}:`)} are never opened here; only 'https:' web addresses are.`,
  };
}
