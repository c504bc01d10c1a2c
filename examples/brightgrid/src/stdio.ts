#!/usr/bin/env node
/**
 * Brightgrid over stdio, for `parley call` and any MCP host that launches servers:
 *
 *   parley call "node examples/brightgrid/dist/stdio.js" book_return
 *
 * The user is the local person: `BRIGHTGRID_USER` (alice or bob), default alice. The data folder
 * is `BRIGHTGRID_DATA`, else one in the system temp folder shared with the HTTP demo.
 */
import { resolveDataDir } from './data-dir.js';
import { openStore } from './db.js';
import { createBrightgrid } from './server.js';

const store = openStore({ dir: resolveDataDir() });
const { server } = createBrightgrid({
  store,
  publicUrl: 'http://127.0.0.1',
  localUser: process.env.BRIGHTGRID_USER || 'alice',
});
server.stdio();
