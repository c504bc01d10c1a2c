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
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measurePromoted } from './profile/promoted.js';
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

const load = {
  questions: Number(values.questions),
  concurrency: Number(values.concurrency),
  warmMs: Number(values.warm) * 1000,
  measuredMs: Number(values.seconds) * 1000,
};

/** Runs one build's Parley bench server under the load and prints its scavenges while measured. */
async function measure(label: string, main: string): Promise<void> {
  const read = await measurePromoted(main, label, load);
  console.log(
    `${label}: ${(read.promotedBytes / 1024).toFixed(0)} KB promoted per scavenge ` +
      `(${(read.survivedBytes / 1024).toFixed(0)} KB survived), ${read.pauseMs.toFixed(2)} ms pause, ` +
      `${(read.rounds / read.scavenges).toFixed(0)} rounds per scavenge, ${read.flowsPerSecond.toFixed(0)} flows/s`,
  );
}

console.log(`(a) load: ${load.questions} question(s) per flow, concurrency ${load.concurrency}`);
await measure('this build', SERVER_MAIN);
if (values.base) await measure('base', join(resolve(values.base), 'bench', 'dist', 'servers', 'main.js'));
