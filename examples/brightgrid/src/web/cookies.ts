/** The cookies a request carries, by name (the first of duplicates wins; malformed pairs are skipped). */
export function readCookies(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, Math.max(eq, 0)).trim();
    if (name === '' || cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(pair.slice(eq + 1).trim()));
    } catch {
      // not percent-encoded properly: not one of ours
    }
  }
  return cookies;
}

/** A `Set-Cookie` value for an HttpOnly, SameSite=Lax cookie on the whole site (`maxAge` 0 deletes it). */
export function setCookie(
  name: string,
  value: string,
  options: { secure: boolean; maxAge?: number },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
