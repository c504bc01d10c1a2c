#!/usr/bin/env node
/**
 * `npm start`: Brightgrid on loopback HTTP, Brightgrid ID (its authorization server, where people
 * sign in) and the lab connected to Brightgrid.
 *
 *   npm start                     # any free ports; opens the lab when a display exists
 *   npm start -- --port 4280      # the lab on port 4280
 *   npm start -- --no-open        # never open a browser
 *   npm start -- --fresh          # start over with new demo data (bookings and cancellations forgotten)
 *
 * Prints `Lab: <url>` on its own line; Ctrl-C (or SIGTERM) stops both and exits 0.
 */
import { parseArgs } from 'node:util';
import { startLab } from '@parley/lab';
import { clearDemoData, resolveDataDir } from './data-dir.js';
import { startBrightgridHttp, startupLines } from './http.js';
import { shouldOpenBrowser } from './open-browser.js';

const USAGE = `Usage: npm start -- [--port <n>] [--no-open] [--fresh] [--request-timeout <ms>]

  --port <n>   the lab's port (default: any free port)
  --no-open    do not open the lab in a browser (it opens only when a display exists)
  --fresh      start over with new demo data: what earlier runs booked or cancelled is forgotten
  --request-timeout <ms>
               how long the lab waits for Brightgrid to answer one request (default 60000);
               signing in and answering questions never count against it`;

interface StartOptions {
  readonly port: number;
  readonly open: boolean;
  readonly fresh: boolean;
  readonly requestTimeoutMs: number | undefined;
}

function readOptions(): StartOptions {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      'request-timeout': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port takes a port number from 0 to 65535, not "${values.port}".`);
  }
  const timeout = values['request-timeout'];
  const requestTimeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (requestTimeoutMs !== undefined && !(Number.isInteger(requestTimeoutMs) && requestTimeoutMs > 0)) {
    throw new Error(`--request-timeout takes a number of milliseconds above 0, not "${timeout}".`);
  }
  return { port, open: shouldOpenBrowser(values['no-open']), fresh: values.fresh, requestTimeoutMs };
}

async function main(): Promise<void> {
  const options = readOptions();
  const started: { close(): Promise<void> }[] = [];
  // Listen for Ctrl-C before anything starts (and before printing: whoever reads the lines may stop
  // us at once); stop what has started so far.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // A stuck connection must not keep a stopped demo alive.
    setTimeout(() => process.exit(1), 5000).unref();
    void Promise.allSettled(started.map((part) => part.close())).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const dataDir = resolveDataDir();
  if (options.fresh) clearDemoData(dataDir);
  const brightgrid = await startBrightgridHttp({ authServer: true, dataDir });
  started.push(brightgrid);
  let lab: Awaited<ReturnType<typeof startLab>>;
  try {
    // The lab signs in to Brightgrid as a person does: at Brightgrid ID, in a new browser window,
    // as the demo's own lab (registered with Brightgrid ID from the start, so not "unverified").
    const identity = brightgrid.identity!;
    lab = await startLab({
      port: options.port,
      targets: [brightgrid.url],
      open: options.open,
      oauthClients: { [identity.issuer]: { clientId: identity.lab.clientId } },
      ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
    });
  } catch (error) {
    await brightgrid.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The lab did not start: ${reason} (npm start -- --port <n> sets the lab's port.)`);
  }
  started.unshift(lab);
  process.stdout.write(
    [
      ...startupLines(brightgrid),
      `Demo data: ${dataDir} (${options.fresh ? 'started over' : 'kept from earlier runs'}; npm start -- --fresh starts over with new demo data)`,
      '',
      `Lab: ${lab.url}`,
      '',
      "In the lab, sign in to Brightgrid (alice / wonderland), then call its tools: the README's Quick start walks each one. Ctrl-C stops.",
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
