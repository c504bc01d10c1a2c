import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import {
  type HttpServerLimits,
  httpServerOptions,
  SERVER_HTTP_LIMITS,
  StreamConnections,
} from '@parley/core/node';

/** What answers requests once the origin is known. */
export interface Site {
  /** `client.address` is the peer's IP address (for throttling). */
  fetch(request: Request, client?: { address?: string }): Promise<Response>;
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/** A running loopback HTTP server. */
export interface Served {
  /** e.g. `http://127.0.0.1:4100` */
  readonly origin: string;
  readonly http: Server;
  /**
   * Lets calls in flight end for up to `drainMs` (new requests refused), then closes. `elsewhere`:
   * other replicas take new connections and pass on what belongs here (a session router), so this
   * one stops listening as it starts to drain.
   */
  close(options?: { readonly drainMs?: number; readonly elsewhere?: boolean }): Promise<void>;
}

/**
 * Listens on 127.0.0.1 first, then builds the site for the origin it got. The URL-flow kit needs
 * its public URL when the server is created, and a free port is only known after listening.
 * `limits` (default {@link SERVER_HTTP_LIMITS}) bounds how long a request may take and how many
 * connections may be open.
 */
export async function serveOnLoopback(
  port: number,
  build: (origin: string) => Site,
  limits: HttpServerLimits = SERVER_HTTP_LIMITS,
): Promise<Served> {
  let site: Site | undefined;
  const listener = getRequestListener(async (request, env) => {
    const { incoming, outgoing } = env as { incoming?: IncomingMessage; outgoing?: ServerResponse };
    const address = incoming?.socket.remoteAddress;
    if (!site) return new Response('Starting', { status: 503 });
    const response = await site.fetch(request, { ...(address && { address }) });
    // An event stream (a 2025-era call waiting for its answer) holds its connection open.
    if (outgoing && response.headers.get('content-type')?.startsWith('text/event-stream'))
      streams.hold(outgoing.socket);
    return response;
  });
  // Slow headers or bodies are cut off at the timeouts, and connections past the cap are dropped
  // (held event streams each make room for themselves and for the connection that answers them).
  const http = createServer(httpServerOptions(limits), (req, res) => {
    void listener(req, res);
  });
  const streams = new StreamConnections(http, limits);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    site = build(origin);
  } catch (error) {
    http.close();
    throw error;
  }
  const built = site;
  return {
    origin,
    http,
    async close(options = {}) {
      // With other replicas to take new connections, a draining replica takes none (see `listen()`).
      const closed = new Promise<void>((resolve) => {
        if (options.elsewhere && (options.drainMs ?? 0) > 0) http.close(() => resolve());
        else resolve();
      });
      await built.close(options);
      http.closeAllConnections();
      if (http.listening) await new Promise<void>((resolve) => http.close(() => resolve()));
      await closed;
    },
  };
}
