import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whom a per-caller budget counts against: the verified user, or for an anonymous caller its
 * network address. An IPv6 caller counts by its /64 (one client usually holds a whole /64, so its
 * single addresses cost nothing to change); an IPv4-mapped IPv6 address counts as its IPv4 one.
 * Anonymous callers whose address is unknown (a fetch handler given none) share one budget.
 */
export function callerKey(principal: string | undefined, address: string | undefined): string {
  if (principal !== undefined) return `user:${principal}`;
  return `address:${address === undefined ? 'unknown' : addressBucket(address)}`;
}

/** The budget an address counts in: an IPv4 address itself, an IPv6 address's /64 prefix. */
export function addressBucket(address: string): string {
  if (isIPv4(address)) return address;
  const unzoned = address.split('%')[0]!;
  if (!isIPv6(unzoned)) return address;
  const hextets = expandIPv6(unzoned);
  if (hextets.slice(0, 5).every((hextet) => hextet === '0') && hextets[5] === 'ffff') {
    const [high, low] = hextets.slice(6).map((hextet) => Number.parseInt(hextet, 16)) as [number, number];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${hextets.slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address (no zone), each without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const toHextets = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = toHextets(part(head));
  const right = tail === undefined ? [] : toHextets(part(tail));
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((hextet) => Number.parseInt(hextet, 16).toString(16));
}
