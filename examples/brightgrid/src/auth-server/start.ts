import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpServerOptions, SERVER_HTTP_LIMITS } from '@parley/core/node';
import type Provider from 'oidc-provider';
import type { Store } from '../db.js';
import type { SignInLimiter } from '../web/sign-in-throttle.js';
import { interactionRoutes } from './interactions.js';
import { type AuthProviderOptions, createAuthProvider } from './provider.js';

/** Brightgrid ID listening on loopback; configured once the resource it protects is known. */
export interface AuthServer {
  /** The issuer identifier, e.g. `http://127.0.0.1:4101`. */
  readonly issuer: string;
  /** Starts answering: builds the provider for the resource and clients now known. */
  configure(options: Omit<AuthProviderOptions, 'issuer' | 'store'>): Promise<Provider>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 first (the issuer is only known then), and answers 503 until
 * {@link AuthServer.configure} has built the provider: the resource it issues tokens for is
 * Brightgrid's endpoint, whose port is only known once Brightgrid listens.
 */
export async function listenAuthServer(
  store: Store,
  port = 0,
  throttle?: SignInLimiter,
): Promise<AuthServer> {
  let handle:
    | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void)
    | undefined;
  // The same limits as Brightgrid's own server: slow requests cut off, connections capped.
  const http: Server = createServer(httpServerOptions(SERVER_HTTP_LIMITS), (req, res) => {
    if (handle === undefined) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Starting');
      return;
    }
    handle(req, res);
  });
  http.maxConnections = SERVER_HTTP_LIMITS.maxConnections;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    issuer,
    async configure(options) {
      const provider = await createAuthProvider({ ...options, issuer, store });
      const verified = new Set([
        ...options.clients.map((client) => client.clientId),
        ...(options.serviceClients ?? []).map((client) => client.clientId),
      ]);
      const interactions = interactionRoutes(provider, store, verified, throttle);
      const callback = provider.callback();
      handle = (req, res) => {
        interactions(req, res)
          .then((handled) => {
            if (!handled) callback(req, res);
          })
          .catch(() => {
            if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
            res.end('Brightgrid ID failed to answer');
          });
      };
      return provider;
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
