#!/usr/bin/env node
/**
 * `npm start`: Brightgrid on loopback HTTP, Brightgrid ID (its authorization server, where people
 * sign in) and the lab connected to Brightgrid.
 *
 *   npm start                     # any free ports; opens the lab when a display exists
 *   npm start -- --port 4280      # the lab on port 4280
 *   npm start -- --no-open        # never open a browser
 *
 * Prints `Lab: <url>` on its own line; Ctrl-C (or SIGTERM) stops both and exits 0.
 */
import { parseArgs } from 'node:util';
import { startLab } from '@parley/lab';
import { startBrightgridHttp, startupLines } from './http.js';
import { shouldOpenBrowser } from './open-browser.js';

const USAGE = `Usage: npm start -- [--port <n>] [--no-open]

  --port <n>   the lab's port (default: any free port)
  --no-open    do not open the lab in a browser (it opens only when a display exists)`;

function readOptions(): { port: number; open: boolean } {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
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
  return { port, open: shouldOpenBrowser(values['no-open']) };
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

  const brightgrid = await startBrightgridHttp({ authServer: true });
  started.push(brightgrid);
  let lab: Awaited<ReturnType<typeof startLab>>;
  try {
    // The lab signs in to Brightgrid as a person does: at Brightgrid ID, in a new browser window.
    lab = await startLab({ port: options.port, targets: [brightgrid.url], open: options.open });
  } catch (error) {
    await brightgrid.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The lab did not start: ${reason} (npm start -- --port <n> sets the lab's port.)`);
  }
  started.unshift(lab);
  process.stdout.write(
    [
      ...startupLines(brightgrid),
      '',
      `Lab: ${lab.url}`,
      '',
      'In the lab, sign in to Brightgrid (alice / wonderland), then call book_return, connect_store_account or book_flight. Ctrl-C stops.',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
