import type { Readable, Writable } from 'node:stream';
import { type StdioServerHandle, StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { App } from '../app.js';
import { buildSdkServer } from '../run/sdk-server.js';
import { guardTransport } from './guarded-transport.js';

/** The streams `server.stdio()` serves on; the process's own by default. */
export interface StdioOptions {
  /** Defaults to the process's stdin/stdout. */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

/** Serves one client over stdio; the opening message decides the era for the connection. */
export function serveOverStdio(app: App, options: StdioOptions = {}): StdioServerHandle {
  const transport = guardTransport(new StdioServerTransport(options.stdin, options.stdout));
  return serveStdio(({ era }) => buildSdkServer(app, era, 'stdio'), {
    transport,
    onerror: (error) => app.log('info', `stdio: ${error.message}`),
  });
}
