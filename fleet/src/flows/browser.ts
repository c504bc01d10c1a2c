import type { HttpCall, HttpReply } from '../lb/send.js';

/**
 * A person's browser, as far as the store's pages can tell: a cookie jar for one origin that sends
 * what the pages set (session and anti-CSRF cookies) and posts forms with its Origin, as browsers do.
 */
export class Browser {
  readonly #cookies = new Map<string, string>();
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  get signedIn(): boolean {
    return this.#cookies.has('brightgrid_session');
  }

  get(path: string): HttpCall {
    return { method: 'GET', path, headers: this.#headers() };
  }

  /** A form POST from one of this site's pages. */
  post(path: string, fields: Readonly<Record<string, string>>): HttpCall {
    return {
      method: 'POST',
      path,
      headers: {
        ...this.#headers(),
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams(fields).toString(),
    };
  }

  /** Keeps the cookies a response sets (`Max-Age=0` deletes). */
  receive(reply: HttpReply): void {
    const header = reply.headers['set-cookie'] ?? [];
    for (const cookie of Array.isArray(header) ? header : [header]) {
      const [pair = '', ...attributes] = cookie.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const deleted = attributes.some((attribute) => /^\s*max-age\s*=\s*0\s*$/i.test(attribute));
      if (deleted) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  #headers(): Record<string, string> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { accept: 'text/html', ...(cookie && { cookie }) };
  }
}

/** The value of a hidden form field on a page (`<input type="hidden" name="csrf" value="...">`). */
export function hiddenField(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
}

/** The path (and query) of a same-origin redirect's Location, or undefined. */
export function redirectPath(reply: HttpReply, origin: string): string | undefined {
  const location = reply.headers.location;
  if (reply.status < 300 || reply.status >= 400 || typeof location !== 'string') return undefined;
  const url = new URL(location, origin);
  return url.origin === origin ? `${url.pathname}${url.search}` : undefined;
}
