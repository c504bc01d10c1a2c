#!/usr/bin/env node
/**
 * Starts the lab from a shell until the `parley lab` command takes over:
 *
 *   node packages/lab/dist/bin.js [target ...] [--port 4280] [--host 127.0.0.1] [--era auto] [--open]
 *
 * Prints `Lab: <url>` (the URL carries the access token) and runs until Ctrl-C.
 */
import { parseArgs } from 'node:util';
import type { EraChoice } from './protocol.js';
import { startLab } from './server/start-lab.js';

const USAGE = `Usage: parley-lab [target ...] [--port <n>] [--host <loopback>] [--era auto|modern|handshake] [--open]

  target   an MCP server to connect at once: a command line in quotes ("node server.js") or a URL
  --port   the port to listen on (default: any free port)
  --host   127.0.0.1 (default), ::1 or localhost
  --era    auto (default: 2026-07-28 first, then the 2025 handshake), modern or handshake
  --open   open the lab in your browser`;

const ERAS = ['auto', 'modern', 'handshake'];

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed: ReturnType<typeof readArgs>;
function readArgs() {
  return parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      era: { type: 'string' },
      open: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
try {
  parsed = readArgs();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a port number, not "${values.port}".`);
const era = values.era ?? 'auto';
if (!ERAS.includes(era)) fail(`--era must be one of ${ERAS.join(', ')}, not "${era}".`);

try {
  const lab = await startLab({
    port,
    ...(values.host !== undefined && { host: values.host }),
    targets: positionals,
    era: era as EraChoice,
    open: values.open === true,
  });
  process.stdout.write(`Lab: ${lab.url}\n`);
  const stop = () => void lab.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
