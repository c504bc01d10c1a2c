import { toUnicodeHost } from './idn.js';
import type { UrlInspection } from './types.js';

/** The Unicode host cut in three so a UI can emphasize the registrable domain; `before + registrable + after` is the whole host. */
export interface HostDisplayParts {
  /** The subdomain labels and their trailing dot, e.g. `'login.example.com.'`; may be empty. */
  readonly before: string;
  /** The part to emphasize: the registrable domain, or the whole host when there is none (an IP address, `localhost`). */
  readonly registrable: string;
  /** A trailing root dot (`'.'` for `https://example.com./`), otherwise empty. */
  readonly after: string;
}

/**
 * Splits the Unicode host of an inspection around its registrable domain, so a host can show the
 * full host and emphasize who owns it (the spec asks clients to highlight the domain).
 *
 * @example
 * const parts = splitHostForDisplay(inspectUrl('https://login.example.com.evil.io/'));
 * // { before: 'login.example.com.', registrable: 'evil.io', after: '' }
 * const line = `${parts.before}[${parts.registrable}]${parts.after}`; // bold the bracketed part in a UI
 */
export function splitHostForDisplay(inspection: UrlInspection): HostDisplayParts {
  const host = inspection.unicodeHost;
  const after = host.endsWith('.') ? '.' : '';
  const bare = host.slice(0, host.length - after.length);
  const registrable =
    inspection.registrableDomain === null ? bare : toUnicodeHost(inspection.registrableDomain);
  if (bare.endsWith(`.${registrable}`)) {
    return { before: bare.slice(0, -registrable.length), registrable, after };
  }
  return { before: '', registrable: bare, after };
}
