import { timingSafeEqual } from 'node:crypto';
import type { Store, WebSession } from '../db.js';
import { digest } from '../secrets.js';
import { readCookies, setCookie } from './cookies.js';

export const SESSION_COOKIE = 'brightgrid_session';

/** The browser sign-in of the store's own site: a session cookie backed by the database. */
export class WebSessions {
  readonly #store: Store;
  /** The site's public origin, e.g. `http://127.0.0.1:4100`. */
  readonly origin: string;

  constructor(store: Store, origin: string) {
    this.#store = store;
    this.origin = origin;
  }

  get #secure(): boolean {
    return this.origin.startsWith('https:');
  }

  /** The signed-in session of the browser that sent `request`, if any. */
  current(request: Request): (WebSession & { id: string }) | undefined {
    const id = readCookies(request).get(SESSION_COOKIE);
    if (!id) return undefined;
    const session = this.#store.webSession(id);
    return session && { ...session, id };
  }

  /** Signs `user` in: the `Set-Cookie` value to send. */
  start(user: string): string {
    const { id } = this.#store.startWebSession(user);
    return setCookie(SESSION_COOKIE, id, { secure: this.#secure });
  }

  /** Signs the browser out: the `Set-Cookie` value that deletes the cookie. */
  end(request: Request): string {
    const id = readCookies(request).get(SESSION_COOKIE);
    if (id) this.#store.endWebSession(id);
    return setCookie(SESSION_COOKIE, '', { secure: this.#secure, maxAge: 0 });
  }

  cookie(name: string, value: string, maxAge?: number): string {
    return setCookie(name, value, { secure: this.#secure, ...(maxAge !== undefined && { maxAge }) });
  }

  /**
   * Whether a form POST may act: it comes from this site (Origin, else Sec-Fetch-Site) and carries
   * the expected anti-CSRF token.
   */
  isSameSitePost(request: Request, sentToken: unknown, expected: string | undefined): boolean {
    // A page under `Referrer-Policy: no-referrer` posts with `Origin: null`; Sec-Fetch-Site still says.
    const origin = request.headers.get('origin');
    const fetchSite = request.headers.get('sec-fetch-site');
    const fromHere =
      origin !== null && origin !== 'null'
        ? origin === this.origin
        : fetchSite === null || fetchSite === 'same-origin';
    return (
      fromHere && typeof sentToken === 'string' && expected !== undefined && sameSecret(sentToken, expected)
    );
  }

  /**
   * A same-origin path for a `return_to` value; anything pointing elsewhere (another origin,
   * `//host`, `javascript:`) becomes `/`, so the sign-in page cannot be used as an open redirect.
   * The check is on the normalised path: `/.//evil.example` is same-origin to the URL parser but
   * normalises to `//evil.example`, which a browser reads as another host.
   */
  localPath(returnTo: string | null): string {
    if (!returnTo) return '/';
    try {
      const url = new URL(returnTo, this.origin);
      const path = `${url.pathname}${url.search}`;
      return url.origin === this.origin && !/^[/\\]{2}/.test(path) ? path : '/';
    } catch {
      return '/';
    }
  }
}

function sameSecret(a: string, b: string): boolean {
  // Compare digests: equal length, so timingSafeEqual never throws and leaks no length.
  return timingSafeEqual(Buffer.from(digest(a)), Buffer.from(digest(b)));
}
