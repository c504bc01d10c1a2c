#!/usr/bin/env node
/**
 * Brightgrid over stdio, for `parley call` and any MCP host that launches servers:
 *
 *   parley call "node examples/brightgrid/dist/stdio.js" book_return
 *
 * The user is the local person: `BRIGHTGRID_USER` (alice or bob), default alice. The data folder is
 * `BRIGHTGRID_DATA`, else one in the system temp folder shared with the HTTP demo. The store's pages
 * (sign-in, connect) are served on a loopback port for `connect_store_account`; its URL goes to stderr.
 */
import { resolveDataDir } from './data-dir.js';
import { openStore } from './db.js';
import { serveOnLoopback } from './serve-http.js';
import { createBrightgrid } from './server.js';

const store = openStore({ dir: resolveDataDir() });
const localUser = process.env.BRIGHTGRID_USER || 'alice';
const pages = await serveOnLoopback(0, (origin) => {
  const brightgrid = createBrightgrid({ store, publicUrl: origin, localUser });
  brightgrid.server.stdio();
  return brightgrid;
});
// The pages must not keep the process alive: it ends when the client closes stdin.
pages.http.unref();
process.stderr.write(`Brightgrid (stdio, user ${localUser}); store pages at ${pages.origin}\n`);
