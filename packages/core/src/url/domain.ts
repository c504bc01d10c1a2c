import { parse } from 'tldts';
import { toUnicodeHost } from './idn.js';
import { DEEP_SUBDOMAIN_LABELS, type UrlWarning } from './types.js';
import { quote } from './words.js';

/** What the public-suffix list says about a host. */
export interface DomainFacts {
  /** The registrable domain (ICANN and private sections), falling back to ICANN only; null if none. */
  readonly registrable: string | null;
  /** The public suffix of the host (`'co.uk'`, `'github.io'`); null for malformed hosts. */
  readonly suffix: string | null;
  /** True when the suffix is on the list; false when only the list's catch-all rule matched. */
  readonly listed: boolean;
}

/** The registrable domain and suffix of an ASCII host without a trailing dot (tldts). */
export function domainFactsOf(host: string): DomainFacts {
  const withPrivate = parse(host, { allowPrivateDomains: true, extractHostname: false });
  const registrable =
    withPrivate.domain ?? parse(host, { allowPrivateDomains: false, extractHostname: false }).domain;
  return {
    registrable,
    suffix: withPrivate.publicSuffix,
    listed: withPrivate.isIcann === true || withPrivate.isPrivate === true,
  };
}

/** A `no-registrable-domain` or `unknown-suffix` warning when the host is not a public internet name. */
export function checkPublicName(unicodeHost: string, facts: DomainFacts): UrlWarning | null {
  if (facts.registrable === null) {
    return {
      code: 'no-registrable-domain',
      message: `${quote(unicodeHost)} is not a name anyone can own on the public internet, so nothing tells you who runs it.`,
    };
  }
  if (!facts.listed) {
    return {
      code: 'unknown-suffix',
      message:
        `${quote(unicodeHost)} ends in ${quote(`.${toUnicodeHost(facts.suffix ?? '')}`)}, which is not a public internet ending: ` +
        'it may lead to a device on a private network.',
    };
  }
  return null;
}

/** A `deep-subdomain` warning when more than DEEP_SUBDOMAIN_LABELS labels precede the registrable domain. */
export function checkDeepSubdomain(
  unicodeHost: string,
  unicodeRegistrable: string | null,
): UrlWarning | null {
  if (unicodeRegistrable === null || !unicodeHost.endsWith(`.${unicodeRegistrable}`)) return null;
  const subdomain = unicodeHost.slice(0, -unicodeRegistrable.length - 1);
  const count = subdomain.split('.').length;
  if (count <= DEEP_SUBDOMAIN_LABELS) return null;
  return {
    code: 'deep-subdomain',
    message:
      `The address has ${count} parts (${quote(subdomain)}) in front of the name of the site, ` +
      `${quote(unicodeRegistrable)}, which can push the real name out of sight.`,
  };
}
