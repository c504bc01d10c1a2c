/**
 * How much of each young-generation collection survives, for this build's Parley bench server and,
 * with `--base DIR`, another built checkout's, under the same load (a):
 *
 *   npm run bench:gc
 *   npm run bench:gc -- --base ../parley-at-ff2aea0 --concurrency 1 --seconds 4
 *
 * Each server runs with V8's `--trace-gc-nvp`. A build that allocates as much per round but keeps
 * more of it alive across a scavenge pays for it in every scavenge's pause (survivors are copied,
 * twice before they are promoted), and that shows here as promoted bytes per scavenge. Unlike
 * flows per second, these figures hardly move between processes of the same code (within about 4%
 * here), so one process per build settles a difference larger than that, and `git bisect run` can
 * find the commit that brought one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { runLoad } from './load/run-load.js';
import { scavengesOf } from './profile/gc-trace.js';
import { SideChannelClient } from './servers/side-channel-client.js';
import { SERVER_MAIN } from './servers/spawn.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    seconds: { type: 'string', default: '4' },
    warm: { type: 'string', default: '3' },
    questions: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
  },
});

const spec = { questions: Number(values.questions), concurrency: Number(values.concurrency) };

/** Runs one build's Parley bench server under the load and reads its scavenges while measured. */
async function measure(label: string, main: string): Promise<void> {
  const trace = join(tmpdir(), `parley-gc-${process.pid}-${label}.txt`);
  const out = openSync(trace, 'w');
  const child = spawn(process.execPath, ['--trace-gc-nvp', main, 'parley'], {
    stdio: ['ignore', out, 'ignore'],
  });
  const exited = once(child, 'exit');
  try {
    let url: string | undefined;
    for (let tries = 0; url === undefined; tries++) {
      if (tries > 200 || child.exitCode !== null)
        throw new Error(`The ${label} server did not print its URL.`);
      await sleep(50);
      url = /\{"url":"([^"]+)"\}/.exec(readFileSync(trace, 'utf8'))?.[1];
    }
    const side = new SideChannelClient(url, label);
    const server = { url, stats: (options?: { gc?: boolean }) => side.stats(options) };
    await runLoad(server, { ...spec, durationMs: Number(values.warm) * 1000 });
    const from = readFileSync(trace, 'utf8').length;
    const run = await runLoad(server, { ...spec, durationMs: Number(values.seconds) * 1000 });
    const scavenges = scavengesOf(readFileSync(trace, 'utf8').slice(from));
    if (!scavenges) throw new Error(`The ${label} server collected no garbage while measured: run longer.`);
    console.log(
      `${label}: ${(scavenges.promotedBytes / 1024).toFixed(0)} KB promoted per scavenge ` +
        `(${(scavenges.survivedBytes / 1024).toFixed(0)} KB survived), ${scavenges.pauseMs.toFixed(2)} ms pause, ` +
        `${(run.rounds / scavenges.scavenges).toFixed(0)} rounds per scavenge, ${run.flowsPerSecond.toFixed(0)} flows/s`,
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(trace, { force: true });
  }
}

console.log(`(a) load: ${spec.questions} question(s) per flow, concurrency ${spec.concurrency}`);
await measure('this build', SERVER_MAIN);
if (values.base) await measure('base', join(resolve(values.base), 'bench', 'dist', 'servers', 'main.js'));
