import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpServerLimits, httpServerOptions, SERVER_HTTP_LIMITS } from '@parley/core/node';

/** One browser brings one answer back: a handful of connections is plenty. */
const LIMITS: HttpServerLimits = { ...SERVER_HTTP_LIMITS, maxConnections: 16 };

const page = (
  title: string,
  text: string,
) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Parley</title>
<body style="font-family: system-ui, sans-serif; margin: 3rem"><h1>${title}</h1><p>${text}</p></body></html>`;
const SIGNED_IN = page('Signed in', 'You can close this tab and go back to the terminal.');
const NOT_OURS = page(
  'Not this sign-in',
  'This is not the sign-in parley is waiting for, so nothing was done. If you are signing in, finish on the sign-in page that parley opened.',
);

/** A sign-in waiting for its authorization response: the one that carries its `state`. */
interface Waiter {
  readonly state: string;
  readonly resolve: (url: URL) => void;
}

/**
 * The loopback redirect of a native app (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 at a free
 * port, started when a sign-in starts, that takes the request to its path carrying the sign-in's
 * `state` as the authorization response. Anything can send a request there (a page in the
 * person's browser, another local process): a request with another `state`, or none, is answered
 * 400 and changes nothing, so it cannot end a sign-in in progress. Other paths get 404.
 */
export class LoopbackRedirect {
  #server: Server | undefined;
  #uri: string | undefined;
  #waiters: Waiter[] = [];

  /** Starts listening (once) and resolves with the redirect URI to register and send. */
  async start(): Promise<string> {
    if (this.#uri !== undefined) return this.#uri;
    // Parley's listener options: timeouts, a connection cap, and a gentle close after a refusal.
    const server = createServer(httpServerOptions(LIMITS), (req, res) => {
      const url = new URL(req.url ?? '/', this.#uri);
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const state = url.searchParams.get('state');
      const waiter = this.#waiters.find((one) => one.state === state);
      res
        .writeHead(waiter ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        })
        .end(waiter ? SIGNED_IN : NOT_OURS);
      if (!waiter) return;
      this.#waiters = this.#waiters.filter((one) => one !== waiter);
      waiter.resolve(url);
    });
    server.maxConnections = LIMITS.maxConnections;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    return this.#uri;
  }

  /** The authorization response the browser brings back for the sign-in whose request carried `state`. */
  next(signal: AbortSignal, state: string): Promise<URL> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        state,
        resolve: (url) => {
          signal.removeEventListener('abort', onAbort);
          resolve(url);
        },
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((one) => one !== waiter);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Stops listening; the next sign-in starts a new listener. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#uri = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
