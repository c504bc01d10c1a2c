/**
 * A benchmark server as its own process, so its CPU time and memory are its own:
 *
 *   node bench/dist/servers/main.js <parley|sdk|floor> [http|stdio]
 *
 * Over HTTP it prints one JSON line `{"url": ...}` once it listens; over stdio it speaks MCP on
 * stdin/stdout. SIGTERM closes it cleanly (so `--cpu-prof` can write its profile).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { listenFloor } from './floor.js';
import { SERVER_KINDS } from './kinds.js';
import { listenParley, parleySurveyServer } from './parley.js';
import { listenSdk, sdkSurveyServer } from './sdk.js';

const [kind, transport = 'http'] = process.argv.slice(2);
const timeout = Number(process.env.BENCH_QUESTION_TIMEOUT_MS);
const parleyOptions = Number.isFinite(timeout) && timeout > 0 ? { questionTimeoutMs: timeout } : {};

async function start(): Promise<() => Promise<unknown>> {
  if (transport === 'stdio') {
    if (kind === 'parley') {
      const handle = parleySurveyServer(parleyOptions).stdio();
      return () => handle.close();
    }
    if (kind === 'sdk') {
      const handle = serveStdio(() => sdkSurveyServer());
      return () => handle.close();
    }
    throw new Error(`No stdio server for '${kind}'; use parley or sdk.`);
  }
  const listening =
    kind === 'parley'
      ? await listenParley(parleyOptions)
      : kind === 'sdk'
        ? await listenSdk()
        : kind === 'floor'
          ? await listenFloor()
          : undefined;
  if (!listening) throw new Error(`Unknown server kind '${kind}'; use one of ${SERVER_KINDS.join(', ')}.`);
  process.stdout.write(`${JSON.stringify({ url: listening.url })}\n`);
  return () => listening.close();
}

const close = await start();
const stop = () => {
  void close()
    .catch(() => {})
    .finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
