import {
  createServer,
  type FlowStore,
  type Logger,
  type ParleyServer,
  type SessionRouter,
} from '@parley/server';
import { apiTokenAuth, oauthAuth } from './auth.js';
import type { Store } from './db.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerBookFlight } from './tools/book-flight.js';
import { registerBookReturn } from './tools/book-return.js';
import { registerCancelOrder } from './tools/cancel-order.js';
import { registerConnectStoreAccount, STORE_ACCOUNT_FLOW } from './tools/connect-store-account.js';
import { registerDeploy } from './tools/deploy.js';
import { type Deps, userResolver } from './tools/deps.js';
import { registerLinkCourierAccount } from './tools/link-courier-account.js';
import { registerListBookings } from './tools/list-bookings.js';
import { registerSelectTags } from './tools/select-tags.js';
import { connectPage } from './web/connect-page.js';
import { homeRoute } from './web/home.js';
import { type IdentityProvider, oidcSignInRoutes } from './web/oidc-sign-in.js';
import { WebSessions } from './web/session.js';
import { signInRoutes } from './web/sign-in.js';
import type { SignInLimiter } from './web/sign-in-throttle.js';

export interface BrightgridOptions {
  readonly store: Store;
  /** The origin where people's browsers reach this server's pages, e.g. `http://127.0.0.1:4100`. */
  readonly publicUrl: string;
  /** The user a stdio connection acts for (stdio carries no credentials). */
  readonly localUser?: string;
  /** Where URL flows live between the call, the page and the retry. Default: this process's memory. */
  readonly flowStore?: FlowStore;
  /** Connect links one user may hold, used ones included (default: the server's, 50). */
  readonly keptLinksPerUser?: number;
  /** Passes a 2025-era session's requests to the replica holding it (a fleet with no affinity). */
  readonly sessionRouter?: SessionRouter;
  /** What this replica's 2025-era session ids start with (its name: a balancer may route on it). */
  readonly sessionIdPrefix?: string;
  readonly now?: () => Date;
  readonly log?: Logger;
  /**
   * Counts failed sign-ins on the store's password page. Default: in this process; a fleet shares a
   * `RedisSignInThrottle` so that N replicas do not allow N times the guesses.
   */
  readonly signInThrottle?: SignInLimiter;
  /**
   * Sign-in through an authorization server (Brightgrid ID): `/mcp` accepts its JWT access tokens
   * for this endpoint (and answers 401 with an OAuth challenge without one), and the store's pages
   * sign people in there. Without it, only the store's API tokens and password page.
   */
  readonly identity?: IdentityProvider;
}

/** Brightgrid: the MCP server, and everything it serves over HTTP on one origin. */
export interface Brightgrid {
  readonly server: ParleyServer;
  /**
   * Serves `/mcp` (bearer tokens from the store), the connect pages of URL flows, and the store's own
   * pages (`/`, `/signin`, `/signout`).
   */
  fetch(request: Request, client?: { address?: string }): Promise<Response>;
  /** Ends the endpoint; `drainMs`: how long calls in flight may take to end on their own first. */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/**
 * Builds Brightgrid, the demo store whose tools show every kind of question.
 *
 * @example
 * const store = openStore({ dir: resolveDataDir() });
 * const served = await serveOnLoopback(0, (origin) => createBrightgrid({ store, publicUrl: origin }));
 * console.log(`${served.origin}/mcp`);
 */
export function createBrightgrid(options: BrightgridOptions): Brightgrid {
  const { store } = options;
  const origin = new URL(options.publicUrl).origin;
  const sessions = new WebSessions(store, origin);
  const server = createServer({
    name: 'brightgrid',
    title: 'Brightgrid store',
    version: '0.1.0',
    instructions:
      'Brightgrid is a small store. Its tools ask the person for what they need (forms, confirmations, a sign-in page), so call them without guessing answers. When a result says the person answers on a page, pass the link on and make the same call again once they did.',
    ...(options.localUser !== undefined && { stdioUser: options.localUser }),
    flows: {
      publicUrl: origin,
      session: (request) => sessions.current(request)?.user,
      signIn: (returnTo) => `${origin}/signin?return_to=${encodeURIComponent(returnTo)}`,
      ...(options.flowStore && { store: options.flowStore }),
      ...(options.keptLinksPerUser !== undefined && { maxKeptPerUser: options.keptLinksPerUser }),
    },
    ...((options.sessionRouter || options.sessionIdPrefix) && {
      sessions: {
        ...(options.sessionRouter && { router: options.sessionRouter }),
        ...(options.sessionIdPrefix && { idPrefix: options.sessionIdPrefix }),
      },
    }),
    ...(options.log && { log: options.log }),
  });
  const deps: Deps = {
    store,
    now: options.now ?? (() => new Date()),
    userOf: userResolver(store, options.localUser),
  };
  registerBookReturn(server, deps);
  registerConnectStoreAccount(server, deps);
  registerBookFlight(server, deps);
  registerDeploy(server, deps);
  registerSelectTags(server, deps);
  registerListBookings(server, deps);
  registerLinkCourierAccount(server, deps);
  registerCancelOrder(server, deps);
  registerPrompts(server, deps);
  registerResources(server, deps);
  server.flow(STORE_ACCOUNT_FLOW, connectPage(store, sessions));

  const protection =
    options.identity === undefined
      ? undefined
      : oauthAuth(store, {
          issuer: options.identity.issuer,
          resource: `${origin}${MCP_PATH}`,
          ...(options.identity.introspection && { introspection: options.identity.introspection }),
        });
  const endpoint = server.endpoint(protection ?? { authenticate: apiTokenAuth(store) });
  const routes = [
    ...(options.identity === undefined ? [] : [oidcSignInRoutes(options.identity, sessions)]),
    signInRoutes(store, sessions, options.signInThrottle),
    homeRoute(store, sessions),
  ];
  return {
    server,
    async fetch(request, client = {}) {
      if (new URL(request.url).pathname === MCP_PATH)
        return endpoint.fetch(request, { ...(client.address && { remoteAddress: client.address }) });
      const metadata = protection?.routes(request);
      if (metadata) return metadata;
      const flowPage = await server.pages(request);
      if (flowPage) return flowPage;
      for (const route of routes) {
        const response = await route(request, client);
        if (response) return response;
      }
      return new Response('Not found', { status: 404 });
    },
    close: (options) => endpoint.close(options),
  };
}
