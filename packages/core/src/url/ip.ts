import type { UrlWarning } from './types.js';
import { quote } from './words.js';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The four octets of a dotted-decimal IPv4 address as the URL parser writes it, or null. */
function ipv4Octets(host: string): readonly number[] | null {
  const match = IPV4.exec(host);
  return match ? match.slice(1).map(Number) : null;
}

/** True when a URL-parsed host is an IP address: dotted IPv4 or bracketed IPv6. */
export function isIpHost(host: string): boolean {
  return ipv4Octets(host) !== null || host.startsWith('[');
}

/** The parsed form of a host, as `new URL()` normalizes it, or null when it is not a valid host. */
function normalizeHost(host: string): string | null {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return null;
  }
}

/**
 * True when a host is this computer: `localhost`, any `*.localhost`, `127.0.0.0/8` or `::1`
 * (the loopback hosts of the W3C Secure Contexts spec). Accepts any form the URL parser accepts:
 * `'127.1'`, `'[::1]'`, `'::1'`, `'LOCALHOST'`.
 *
 * @example
 * isLoopbackHost('localhost'); // true
 * isLoopbackHost('127.0.0.2'); // true
 * isLoopbackHost('localhost.example.com'); // false
 */
export function isLoopbackHost(host: string): boolean {
  if (typeof host !== 'string' || host === '') return false;
  const normalized = normalizeHost(host);
  if (normalized === null) return false;
  if (normalized === 'localhost' || normalized.endsWith('.localhost')) return true;
  if (normalized === '[::1]') return true;
  return ipv4Octets(normalized)?.[0] === 127;
}

/** True for addresses that only reach devices on a private or local network. */
function isPrivateNetwork(host: string): boolean {
  const octets = ipv4Octets(host);
  if (octets) {
    const [a = 0, b = 0] = octets;
    return (
      a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  // fc00::/7 (unique local) and fe80::/10 (link local)
  return /^\[(f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):/.test(host);
}

/** An `ip-literal` warning for a numeric host that is not this computer. */
export function checkIpLiteral(host: string): UrlWarning | null {
  if (!isIpHost(host) || isLoopbackHost(host)) return null;
  const where = isPrivateNetwork(host)
    ? 'a device on a private network (such as a router or printer)'
    : 'a bare numeric internet address, so nothing tells you who runs the site';
  return {
    code: 'ip-literal',
    message: `The address is the number ${host} rather than a name: it leads to ${where}.`,
  };
}

/** An `obfuscated-ip` warning when an IPv4 host was written in a form other than what it resolves to. */
export function checkObfuscatedIp(host: string, writtenHost: string): UrlWarning | null {
  if (ipv4Octets(host) === null || writtenHost.toLowerCase() === host) return null;
  return {
    code: 'obfuscated-ip',
    message: `The address writes its host as ${quote(writtenHost)}, a disguised way of writing the numeric address ${host}.`,
  };
}
