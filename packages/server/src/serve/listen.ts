import cluster from 'node:cluster';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { App } from '../app.js';
import { createEndpoint, type EndpointOptions } from './http-endpoint.js';

export interface ListenOptions extends EndpointOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Loopback by default. Binding elsewhere needs `allowedHosts`. */
  readonly host?: string;
  /** The endpoint path. Default `/mcp`. */
  readonly path?: string;
  /**
   * Extra routes on the same origin (e.g. a sign-in page for URL flows), tried before 404. Return
   * `undefined` to pass.
   */
  readonly routes?: (request: Request) => Response | undefined | Promise<Response | undefined>;
}

/** A running HTTP server. */
export interface Listening {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  close(): Promise<void>;
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
  const listener = getRequestListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === path) return endpoint.fetch(request);
    const page = app.flows ? await app.flows.handle(request) : undefined;
    if (page) return page;
    const routed = options.routes ? await options.routes(request) : undefined;
    return routed ?? new Response('Not found', { status: 404 });
  });
  const http = createHttpServer((req, res) => {
    void listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  app.flows?.useDefaultOrigin(`http://${shownHost}:${port}`);
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    http,
    async close() {
      await endpoint.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
