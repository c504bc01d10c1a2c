import { parseArgs } from 'node:util';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { writeText } from '../print.js';
import { readPort, stopRequested } from './serving.js';

/** The lab (its HTTP server and page) is loaded only when `parley lab` runs, so other commands start without it. */
const loadLab = () => import('@parley/lab');

const ERAS = ['auto', 'modern', 'handshake'] as const;

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  era: { type: 'string' },
  open: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const labCommand: Command = {
  name: 'lab',
  summary: 'open the browser lab: call servers and answer their questions in a page',
  usage: `Usage: parley lab [target ...] [options]

Starts the lab on this computer only and prints its URL. Open the URL in a browser
to connect to MCP servers, call their tools, prompts and resources, answer their
questions, and watch each call's rounds. More servers can be added from the page.

Each <target> is a URL (http:// or https://, Streamable HTTP) or a command line that
starts a server on stdio, quoted as one argument: "node server.js".

The URL carries a random access token: anyone with it can run commands as you, so
do not share it. The lab runs until Ctrl-C.

Options:
  --port <n>        the port to listen on (default: any free port)
  --host <address>  127.0.0.1 (default), ::1 or localhost
  --era <era>       for the targets: auto (default: 2026-07-28 first, then the 2025
                    handshake), modern or handshake
  --open            open the lab in your browser
  -h, --help        show this help`,
  async run(args, io) {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>;
    try {
      parsed = parseArgs({ args: [...args], options: FLAGS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(`${(error as Error).message}; see parley help lab`);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    const era = values.era ?? 'auto';
    if (!(ERAS as readonly string[]).includes(era)) {
      throw new UsageError(`--era must be auto, modern or handshake; got "${era}"`);
    }
    const port = readPort(values.port);
    // Listen for Ctrl-C before the URL is out: whoever reads it may stop the lab at once.
    const stopped = stopRequested();
    const { startLab } = await loadLab();
    const lab = await startLab({
      port,
      ...(values.host !== undefined && { host: values.host }),
      targets: positionals,
      era: era as (typeof ERAS)[number],
      open: values.open === true,
    }).catch((error: unknown) => {
      // startLab refuses bad options (a host beyond this computer) with a TypeError.
      throw error instanceof TypeError ? new UsageError(error.message) : error;
    });
    writeText(io.stdout, `Lab: ${lab.url}`);
    await stopped;
    await lab.close();
    return EXIT.ok;
  },
};
