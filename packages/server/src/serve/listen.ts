import cluster from 'node:cluster';
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type HttpServerLimits,
  httpServerOptions,
  SERVER_HTTP_LIMITS,
  StreamConnections,
} from '@parley/core/node';
import type { App } from '../app.js';
import { slowReaderLimits } from '../http/http-exchange.js';
import { nodeExchange, nodeResponder } from '../http/node-adapter.js';
import { createEndpoint, type EndpointOptions } from './http-endpoint.js';
import { servePage } from './page-listener.js';

/** Where `server.listen()` serves its HTTP endpoint, and how (every `EndpointOptions` applies). */
export interface ListenOptions extends EndpointOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Loopback by default. Binding elsewhere needs `allowedHosts`. */
  readonly host?: string;
  /** The endpoint path. Default `/mcp`. */
  readonly path?: string;
  /**
   * Extra routes on the same origin (e.g. a sign-in page for URL flows), tried after the endpoint,
   * the flow pages and the question pages. Return `undefined` to pass (404).
   */
  readonly routes?: (request: Request) => Response | undefined | Promise<Response | undefined>;
  /**
   * Timeouts and the connection cap of the listener. Defaults: headers within 60 s, a whole
   * request within 120 s, 1024 connections, plus room for two more per connection that carries a
   * response held open as an event stream (a 2025-era call in flight: its stream and the connection
   * that answers it), for up to 8192 such connections.
   */
  readonly limits?: Partial<HttpServerLimits>;
}

/** A running HTTP server. */
export interface Listening {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  /**
   * Stops the server. With `drainMs` it first lets the requests in flight end on their own for up
   * to that long (2025 calls waiting on a person, requests passed through the fleet's router),
   * taking their answers and refusing new 2025 sessions and calls with 503 ("send it again"); then it ends what
   * remains (a 2025 call gets an error saying the server stopped) and closes. With a session router
   * (a fleet) it takes no new connections while it drains: the other replicas take them and pass
   * on what belongs here. A rolling restart with a drain cuts only the calls that outlast it.
   *
   * @example
   * const listening = await server.listen({ port: 3000 });
   * process.once('SIGTERM', () => void listening.close({ drainMs: 5000 }).then(() => process.exit(0)));
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export async function listen(app: App, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !options.allowedHosts) {
    throw new TypeError(
      `Binding to ${host} needs allowedHosts: list the hostnames clients use to reach this server (the Host header check stops DNS rebinding).`,
    );
  }
  const path = options.path ?? '/mcp';
  const endpoint = createEndpoint(app, options);
  const slowReaders = slowReaderLimits(options.eventStreams);
  if (await app.usesEphemeralKey()) {
    // A worker process or a non-loopback bind is a deployment that may have replicas; a loopback
    // dev server is a single process, for which the ephemeral key is right.
    const deployed = cluster.isWorker || !LOOPBACK.has(host);
    app.log(
      deployed ? 'warn' : 'info',
      'requestState is sealed with a random key made for this process only: rounds that reach another replica or ' +
        'outlive a restart will be refused. Set PARLEY_STATE_KEYS (id:base64secret, sealing key first) on every replica of a fleet.',
    );
  }
  let origin = '';
  const routes = options.routes;
  const pages = (req: IncomingMessage, res: ServerResponse) =>
    servePage(req, res, origin, async (request) => {
      const page = (await app.flows?.handle(request)) ?? (await app.pages?.handle(request));
      return page ?? (routes ? await routes(request) : undefined);
    });
  const limits = { ...SERVER_HTTP_LIMITS, ...options.limits };
  const http = createHttpServer(httpServerOptions(limits), (req, res) => {
    const isEndpoint = (req.url ?? '/').split('?')[0] === path;
    const served = isEndpoint
      ? endpoint.serve(nodeExchange(req, res, origin), nodeResponder(res, slowReaders, streams))
      : pages(req, res);
    served.catch((error: unknown) => {
      app.log('error', `HTTP: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  // Sets and keeps up http.maxConnections: held streams do not starve the answers to their questions.
  const streams = new StreamConnections(http, limits);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  origin = `http://${shownHost}:${port}`;
  app.flows?.useDefaultOrigin(origin);
  app.pages?.useDefaultOrigin(origin);
  return {
    url: `${origin}${path}`,
    port,
    http,
    async close(closing = {}) {
      // An answer to a waiting question comes on a new connection. In a fleet with a session router
      // the other replicas take it and pass it here, so a draining replica takes no new connections
      // and the balancer sends new work elsewhere; a lone server keeps listening while it drains.
      const closed = new Promise<void>((resolve) => {
        if (app.sessionRouter && (closing.drainMs ?? 0) > 0) http.close(() => resolve());
        else resolve();
      });
      await Promise.all([endpoint.close(closing), app.pages?.close()]);
      http.closeAllConnections();
      if (http.listening) await new Promise<void>((resolve) => http.close(() => resolve()));
      await closed;
    },
  };
}
