import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpServerLimits, httpServerOptions, SERVER_HTTP_LIMITS } from '@parley/core';

/** One browser brings one answer back: a handful of connections is plenty. */
const LIMITS: HttpServerLimits = { ...SERVER_HTTP_LIMITS, maxConnections: 16 };

const PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Parley</title>
<body style="font-family: system-ui, sans-serif; margin: 3rem"><h1>Signed in</h1><p>You can close this tab and go back to the terminal.</p></body></html>`;

/**
 * The loopback redirect of a native app (RFC 8252 §7.3): a one-shot HTTP listener on 127.0.0.1
 * at a free port, started when a sign-in starts, that takes the first request to its path as the
 * authorization response and stops listening. Other paths get 404.
 */
export class LoopbackRedirect {
  #server: Server | undefined;
  #uri: string | undefined;
  #waiters: ((url: URL) => void)[] = [];

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
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        })
        .end(PAGE);
      const waiters = this.#waiters.splice(0);
      for (const resolve of waiters) resolve(url);
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

  /** The next authorization response the browser brings back. */
  next(signal: AbortSignal): Promise<URL> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push((url) => {
        signal.removeEventListener('abort', onAbort);
        resolve(url);
      });
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
