import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Logger } from '@parley/server';
import { resolveDataDir } from './data-dir.js';
import { openStore, type Store } from './db.js';
import { DEMO_USERS } from './demo-users.js';
import { type Served, serveOnLoopback } from './serve-http.js';
import { createBrightgrid, MCP_PATH } from './server.js';

export interface BrightgridHttpOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default `BRIGHTGRID_DATA`, else a folder in the system temp folder. */
  readonly dataDir?: string;
  readonly log?: Logger;
}

/** A running Brightgrid over HTTP. */
export interface BrightgridHttp {
  /** The MCP endpoint, e.g. `http://127.0.0.1:4100/mcp`. */
  readonly url: string;
  /** The store's site (sign-in page), e.g. `http://127.0.0.1:4100`. */
  readonly origin: string;
  /** A fresh API token per demo user, for `Authorization: Bearer <token>`. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly store: Store;
  close(): Promise<void>;
}

/**
 * Starts Brightgrid on loopback HTTP: the MCP endpoint at `/mcp` (bearer tokens), the connect pages
 * of URL flows, and the store's own pages beside them.
 *
 * @example
 * const brightgrid = await startBrightgridHttp();
 * console.log(brightgrid.url, brightgrid.tokens.alice);
 */
export async function startBrightgridHttp(options: BrightgridHttpOptions = {}): Promise<BrightgridHttp> {
  const store = openStore({ dir: options.dataDir ?? resolveDataDir() });
  let served: Served;
  try {
    served = await serveOnLoopback(options.port ?? 0, (origin) =>
      createBrightgrid({ store, publicUrl: origin, ...(options.log && { log: options.log }) }),
    );
  } catch (error) {
    store.close();
    throw error;
  }
  const tokens = Object.fromEntries(DEMO_USERS.map((user) => [user.name, store.issueToken(user.name)]));
  return {
    url: `${served.origin}${MCP_PATH}`,
    origin: served.origin,
    tokens,
    store,
    async close() {
      await served.close();
      store.close();
    },
  };
}

/** The lines a person needs to use a running Brightgrid. */
export function describe(brightgrid: BrightgridHttp): string[] {
  return [
    `Brightgrid: ${brightgrid.url}`,
    `Store sign-in: ${brightgrid.origin}/signin (${DEMO_USERS.map((u) => `${u.name} / ${u.password}`).join(', or ')})`,
    ...Object.entries(brightgrid.tokens).map(
      ([user, token]) => `Token for ${user}: Authorization: Bearer ${token}`,
    ),
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port takes a port number from 0 to 65535 (got ${values.port}).`);
  }
  const brightgrid = await startBrightgridHttp({ port });
  process.stdout.write(`${describe(brightgrid).join('\n')}\n`);
  const stop = () => void brightgrid.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
