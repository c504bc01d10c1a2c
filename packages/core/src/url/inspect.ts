import { checkConfusables } from './confusables.js';
import { checkDeepSubdomain, checkPublicName, type DomainFacts, domainFactsOf } from './domain.js';
import { checkPunycode, toUnicodeHost } from './idn.js';
import { checkIpLiteral, checkObfuscatedIp, isIpHost, isLoopbackHost } from './ip.js';
import { checkLookalike } from './lookalike.js';
import { checkPort, checkScheme, checkUserinfo } from './parts.js';
import { checkMixedScript } from './scripts.js';
import { checkInvisibleCharacters, checkLength } from './text.js';
import type { UrlInspection, UrlWarning } from './types.js';
import { writtenHostOf } from './written-host.js';

const UNPARSABLE: UrlInspection = Object.freeze({
  allowed: false,
  href: '',
  scheme: '',
  host: '',
  unicodeHost: '',
  registrableDomain: null,
  port: '',
  warnings: Object.freeze([
    Object.freeze({
      code: 'unparsable',
      message: 'This text is not a valid web address, so it cannot be opened.',
    } as const),
  ]),
});

function parseUrl(url: unknown): URL | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The public-suffix facts for a named host; null for IP addresses, loopback names and empty hosts. */
function domainFactsFor(host: string): DomainFacts | null {
  if (host === '' || isIpHost(host) || isLoopbackHost(host)) return null;
  return domainFactsOf(host.endsWith('.') ? host.slice(0, -1) : host);
}

/** The warnings about the host and address of an http(s) URL, most severe first. */
function webWarnings(parsed: URL, url: string, unicodeHost: string, facts: DomainFacts | null) {
  const host = parsed.hostname;
  const loopback = isLoopbackHost(host);
  const registrable = facts?.registrable ?? null;
  return [
    checkUserinfo(parsed, unicodeHost),
    facts && checkLookalike(host.replace(/\.$/, ''), facts),
    checkConfusables(unicodeHost),
    checkMixedScript(unicodeHost),
    checkPunycode(host, unicodeHost),
    checkObfuscatedIp(host, writtenHostOf(url)),
    checkIpLiteral(host),
    checkDeepSubdomain(unicodeHost.replace(/\.$/, ''), registrable && toUnicodeHost(registrable)),
    loopback ? null : checkPort(parsed.port, unicodeHost),
    facts && checkPublicName(unicodeHost, facts),
  ];
}

/**
 * Everything a person must be warned about before opening a URL, and whether it may be opened at all.
 * Never throws: bad input yields `allowed: false` with an `unparsable` warning.
 *
 * `allowed` is true only for `https:` URLs and for `http:` URLs to this computer (`localhost`,
 * `127.0.0.0/8`, `[::1]`); a dev server such as `http://localhost:5173` gets no warning at all.
 * Warnings are listed most severe first; an ordinary `https:` URL has none.
 *
 * @example
 * const inspection = inspectUrl('https://login.example.com.evil.io/start');
 * inspection.allowed; // true: https, so it may be opened after the person is warned
 * inspection.registrableDomain; // 'evil.io'
 * inspection.warnings.map((w) => w.code); // ['lookalike-domain']
 */
export function inspectUrl(url: string): UrlInspection {
  const parsed = parseUrl(url);
  if (parsed === null) return UNPARSABLE;
  const scheme = parsed.protocol.slice(0, -1);
  const host = parsed.hostname;
  const unicodeHost = toUnicodeHost(host);
  const facts = domainFactsFor(host);
  const web = scheme === 'https' || scheme === 'http';
  const schemeWarning = checkScheme(scheme, web && isLoopbackHost(host));
  const warnings = [
    schemeWarning,
    ...(web ? webWarnings(parsed, url, unicodeHost, facts) : []),
    checkInvisibleCharacters(url),
    checkLength(parsed.href),
  ].filter((warning): warning is UrlWarning => warning !== null);
  return {
    allowed: schemeWarning === null,
    href: parsed.href,
    scheme,
    host,
    unicodeHost,
    registrableDomain: facts?.registrable ?? null,
    port: parsed.port,
    warnings,
  };
}
