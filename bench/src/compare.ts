/**
 * Parley against another build of itself, side by side: the same (a) flow, the two servers
 * interleaved run by run (A B, then B A, …) so drift in machine load falls on both alike.
 *
 *   npm run bench:compare -- --base ../parley-at-ff2aea0        # a built checkout of another commit
 *   npm run bench:compare -- --base DIR --runs 9 --seconds 5 --questions 1 --concurrency 16
 *   npm run bench:compare -- --kind parley-use                  # this build with a feature vs plain
 *   npm run bench:compare -- --kind sdk-floor --fresh-every 2    # this build against a yardstick
 *   npm run bench:compare -- --base DIR --runs 32 --fresh-every 2   # new processes every 2 pairs
 *
 * `--base DIR` is a checkout that ran `npm run build` (its bench/dist/servers/main.js is started);
 * without it, `--kind K` (a feature variant, or the raw SDK or a floor as a yardstick) is compared
 * with plain Parley of this build. Prints each pair and the
 * medians: flows/s and server CPU per round.
 *
 * A server process keeps its own speed for its whole life: two processes of the same code have
 * differed by 5–10% on a 2-core machine, so every pair of one pair of processes carries the same
 * luck. `--fresh-every N` starts both servers anew every N pairs (the first-started side
 * alternating; `--other-first` starts the other one first in the first block), so the median is
 * over many processes, not over many runs of two.
 */

import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadRun, runLoad } from './load/run-load.js';
import { FEATURE_KINDS, type ServerKind } from './servers/kinds.js';
import { ServerProcess } from './servers/spawn.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    kind: { type: 'string', default: 'parley' },
    runs: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '5' },
    warm: { type: 'string', default: '8' },
    questions: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
    'other-first': { type: 'boolean', default: false },
    'fresh-every': { type: 'string', default: '0' },
  },
});

const runs = Number(values.runs);
const durationMs = Number(values.seconds) * 1000;
const freshEvery = Number(values['fresh-every']);
const spec = { questions: Number(values.questions), concurrency: Number(values.concurrency) };
const kind = values.kind as ServerKind;
/** What this build's Parley can be compared with in place of a base: a feature of its own, or a yardstick. */
const OTHERS: readonly string[] = [...FEATURE_KINDS, 'sdk', 'sdk-floor', 'json-floor'];
if (!values.base && !OTHERS.includes(kind)) {
  throw new Error(`Give --base DIR (a built checkout) or --kind ${OTHERS.join('|')}.`);
}
if (!Number.isInteger(freshEvery) || freshEvery < 0) {
  throw new Error(`--fresh-every takes a whole number of pairs (0: the same two processes throughout).`);
}

/** One side of the comparison: how to start its server, and every run it made. */
interface Side {
  readonly name: string;
  readonly kind: ServerKind;
  readonly main: string | undefined;
  readonly runs: LoadRun[];
  server?: ServerProcess;
}

const side = (name: string, serverKind: ServerKind, main?: string): Side => ({
  name,
  kind: serverKind,
  main,
  runs: [],
});
const sides: [Side, Side] = values.base
  ? [
      side('this build', 'parley'),
      side(
        `base (${values.base})`,
        'parley',
        join(resolve(values.base), 'bench', 'dist', 'servers', 'main.js'),
      ),
    ]
  : [side('parley', 'parley'), side(kind, kind)];

/** Starts both servers (`first` first) and warms them in that order. */
async function startBoth(first: Side, second: Side): Promise<void> {
  for (const s of [first, second]) {
    s.server = await ServerProcess.start(s.kind, s.main ? { main: s.main } : {});
  }
  for (const s of [first, second]) {
    await runLoad(s.server!, { ...spec, durationMs: Number(values.warm) * 1000 });
  }
}

async function stopBoth(): Promise<void> {
  await Promise.all(sides.map((s) => s.server?.stop()));
  for (const s of sides) s.server = undefined;
}

const [a, b] = sides;
const processPairs: number[] = [];
try {
  let block = 0;
  let blockStart = 0;
  for (let run = 0; run < runs; run++) {
    if (run === 0 || (freshEvery > 0 && run % freshEvery === 0)) {
      if (run > 0) {
        processPairs.push(median(ratiosFrom(blockStart, run)));
        await stopBoth();
      }
      const otherFirst = (block % 2 === 1) !== values['other-first'];
      await startBoth(otherFirst ? b : a, otherFirst ? a : b);
      block++;
      blockStart = run;
    }
    const order = run % 2 === 0 ? sides : [b, a];
    for (const s of order) s.runs.push(await runLoad(s.server!, { ...spec, durationMs }));
    const ra = a.runs.at(-1)!;
    const rb = b.runs.at(-1)!;
    process.stderr.write(
      `run ${run + 1}/${runs}: ${ra.flowsPerSecond.toFixed(0)} vs ${rb.flowsPerSecond.toFixed(0)} flows/s ` +
        `(${(ra.flowsPerSecond / rb.flowsPerSecond).toFixed(3)}), CPU/round ${ra.cpuPerRoundUs.toFixed(0)} vs ${rb.cpuPerRoundUs.toFixed(0)} µs\n`,
    );
  }
  processPairs.push(median(ratiosFrom(blockStart, runs)));
  const ratios = ratiosFrom(0, runs);
  const cpuRatios = a.runs.map((r, index) => r.cpuPerRoundUs / b.runs[index]!.cpuPerRoundUs);
  const row = (s: Side) =>
    `| ${s.name} | ${median(s.runs.map((r) => r.flowsPerSecond)).toFixed(0)} | ${median(s.runs.map((r) => r.cpuPerRoundUs)).toFixed(1)} |`;
  console.log(`q${spec.questions}-c${spec.concurrency}, ${runs} × ${values.seconds} s, interleaved\n`);
  console.log('| Server | flows/s (median) | CPU µs per round (median) |\n| --- | --- | --- |');
  console.log(row(a));
  console.log(row(b));
  console.log(
    `\n${a.name} / ${b.name}: flows/s ×${median(ratios).toFixed(3)} (pairs ${ratios.map((r) => r.toFixed(2)).join(' ')}), ` +
      `CPU per round ×${median(cpuRatios).toFixed(3)}`,
  );
  if (processPairs.length > 1) {
    console.log(
      `by pair of processes (${processPairs.length}, fresh every ${freshEvery} pairs): flows/s ×${median(processPairs).toFixed(3)} ` +
        `(${processPairs.map((r) => r.toFixed(2)).join(' ')})`,
    );
  }
} finally {
  await stopBoth();
}

/** This build's flows/s over the other's, pair by pair, for runs `from` to `to`. */
function ratiosFrom(from: number, to: number): number[] {
  return a.runs.slice(from, to).map((r, index) => r.flowsPerSecond / b.runs[from + index]!.flowsPerSecond);
}
