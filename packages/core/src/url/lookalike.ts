import { parse } from 'tldts';
import type { DomainFacts } from './domain.js';
import { toUnicodeHost } from './idn.js';
import type { UrlWarning } from './types.js';
import { quote } from './words.js';

/** The generic endings of RFC 1591 and the 2001 round, which everyone reads as the end of an address. */
const WELL_KNOWN_ENDINGS: ReadonlySet<string> = new Set([
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'mil',
  'int',
  'info',
  'biz',
]);

/**
 * The domain a host prefix reads as, when it ends in a suffix people recognise as the end of an
 * address: a multi-label ICANN suffix (`co.uk`, `com.au`) or a long-established generic one. Two-letter
 * country codes and newer generic words (`eu`, `de`, `app`, `aws`, `cloud`) are left out on purpose:
 * they are everyday subdomain labels (`api.eu.example.com`, `docs.aws.amazon.com`).
 */
function recognisableDomainOf(prefix: string): string | null {
  const facts = parse(prefix, { allowPrivateDomains: false, extractHostname: false });
  const suffix = facts.publicSuffix;
  if (facts.isIcann !== true || facts.domain === null || suffix === null) return null;
  return suffix.includes('.') || WELL_KNOWN_ENDINGS.has(suffix) ? facts.domain : null;
}

/**
 * The first domain that the start of the host reads as, other than the real registrable domain:
 * `'example.com'` for `login.example.com.evil.io`, `'paypal.com'` for `paypal.com-secure.example.net`.
 * Candidates are the host's prefixes cut at a '.' or '-' in front of the host's public suffix.
 */
export function suggestedDomainOf(host: string, facts: DomainFacts): string | null {
  if (facts.registrable === null || facts.suffix === null) return null;
  const lastCut = host.length - facts.suffix.length - 1;
  for (let i = 0; i <= lastCut; i++) {
    if (host[i] !== '.' && host[i] !== '-') continue;
    const suggested = recognisableDomainOf(host.slice(0, i));
    if (suggested !== null && suggested !== facts.registrable) return suggested;
  }
  return null;
}

/** A `lookalike-domain` warning when the host starts like one site but belongs to another. */
export function checkLookalike(host: string, facts: DomainFacts): UrlWarning | null {
  const suggested = suggestedDomainOf(host, facts);
  if (suggested === null || facts.registrable === null) return null;
  const real = quote(toUnicodeHost(facts.registrable));
  return {
    code: 'lookalike-domain',
    message:
      `The address starts like ${quote(toUnicodeHost(suggested))}, but it leads to ${real}: ` +
      `everything in front of ${real} is chosen by whoever owns ${real}.`,
  };
}
