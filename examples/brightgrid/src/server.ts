import { createServer, type Logger, type ParleyServer } from '@parley/server';
import type { Store } from './db.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerBookFlight } from './tools/book-flight.js';
import { registerBookReturn } from './tools/book-return.js';
import { registerDeploy } from './tools/deploy.js';
import type { Deps } from './tools/deps.js';
import { userResolver } from './tools/deps.js';
import { registerListBookings } from './tools/list-bookings.js';
import { registerSelectTags } from './tools/select-tags.js';
import { homeRoute } from './web/home.js';
import { WebSessions } from './web/session.js';
import { signInRoutes } from './web/sign-in.js';

export interface BrightgridOptions {
  readonly store: Store;
  /**
   * The origin where people's browsers reach the store's pages (sign-in, connect), e.g.
   * `http://127.0.0.1:4100`. A function when it is known only after listening.
   */
  readonly publicUrl: string | (() => string);
  /** The user a stdio connection acts for (stdio carries no credentials). */
  readonly localUser?: string;
  readonly now?: () => Date;
  readonly log?: Logger;
}

/** Brightgrid: the MCP server, and the store's own web pages served beside it. */
export interface Brightgrid {
  readonly server: ParleyServer;
  /** The store's pages (`/`, `/signin`, `/signout`); `undefined` for other paths. */
  routes(request: Request): Promise<Response | undefined>;
}

/**
 * Builds Brightgrid, the demo store whose tools show every kind of question.
 *
 * @example
 * const store = openStore({ dir: resolveDataDir() });
 * const { server, routes } = createBrightgrid({ store, publicUrl: 'http://127.0.0.1:4100' });
 * await server.listen({ port: 4100, routes, authenticate: bearerAuth(store) });
 */
export function createBrightgrid(options: BrightgridOptions): Brightgrid {
  const { store } = options;
  const origin =
    typeof options.publicUrl === 'string' ? () => options.publicUrl as string : options.publicUrl;
  const sessions = new WebSessions(store, () => new URL(origin()).origin);
  const server = createServer({
    name: 'brightgrid',
    title: 'Brightgrid store',
    version: '0.1.0',
    instructions:
      'Brightgrid is a small store. Its tools ask the person for what they need (forms, confirmations, a sign-in page), so call them without guessing answers.',
    ...(options.log && { log: options.log }),
  });
  const deps: Deps = {
    store,
    now: options.now ?? (() => new Date()),
    userOf: userResolver(store, options.localUser),
  };
  registerBookReturn(server, deps);
  registerBookFlight(server, deps);
  registerDeploy(server, deps);
  registerSelectTags(server, deps);
  registerListBookings(server, deps);
  registerPrompts(server, deps);
  registerResources(server, deps);

  const pages = [signInRoutes(store, sessions), homeRoute(store, sessions)];
  return {
    server,
    async routes(request) {
      for (const route of pages) {
        const response = await route(request);
        if (response) return response;
      }
      return undefined;
    },
  };
}
