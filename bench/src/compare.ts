/**
 * Parley against another build of itself, side by side: the same (a) flow, the two servers
 * interleaved run by run (A B, then B A, …) so drift in machine load falls on both alike.
 *
 *   npm run bench:compare -- --base ../parley-at-ff2aea0        # a built checkout of another commit
 *   npm run bench:compare -- --base DIR --runs 9 --seconds 5 --questions 1 --concurrency 16
 *   npm run bench:compare -- --kind parley-use                  # this build with a feature vs plain
 *   npm run bench:compare -- --base DIR --other-first          # the same, the other side started and run first
 *
 * `--base DIR` is a checkout that ran `npm run build` (its bench/dist/servers/main.js is started);
 * without it, `--kind K` is compared with plain Parley of this build. Prints each pair and the
 * medians: flows/s and server CPU per round. Which side starts (and warms) first has moved the ratio
 * on a 2-core machine by more than the gaps it was asked to find (one pair of builds read 0.875 one
 * way and 1.011 the other, 31 pairs each), so run a close call both ways (`--other-first`).
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
  },
});

const runs = Number(values.runs);
const durationMs = Number(values.seconds) * 1000;
const spec = { questions: Number(values.questions), concurrency: Number(values.concurrency) };
const kind = values.kind as ServerKind;
if (!values.base && !(FEATURE_KINDS as readonly string[]).includes(kind)) {
  throw new Error(`Give --base DIR (a built checkout) or --kind ${FEATURE_KINDS.join('|')}.`);
}

interface Side {
  readonly name: string;
  readonly server: ServerProcess;
  readonly runs: LoadRun[];
}

const start = (kind: ServerKind, main?: string) => ServerProcess.start(kind, main ? { main } : {});
const mainOf = (dir: string) => join(resolve(dir), 'bench', 'dist', 'servers', 'main.js');
const plan: [string, ServerKind, string | undefined][] = values.base
  ? [
      ['this build', 'parley', undefined],
      [`base (${values.base})`, 'parley', mainOf(values.base)],
    ]
  : [
      ['parley', 'parley', undefined],
      [kind, kind, undefined],
    ];
if (values['other-first']) plan.reverse();
const started: Side[] = [];
for (const [name, serverKind, main] of plan)
  started.push({ name, server: await start(serverKind, main), runs: [] });
// `sides` stays [this, other] for the report; `started` is the order they start and run in.
const sides = values['other-first'] ? [...started].reverse() : started;

try {
  for (const side of started) await runLoad(side.server, { ...spec, durationMs: Number(values.warm) * 1000 });
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? started : [...started].reverse();
    for (const side of order) side.runs.push(await runLoad(side.server, { ...spec, durationMs }));
    const [a, b] = sides as [Side, Side];
    const ra = a.runs.at(-1)!;
    const rb = b.runs.at(-1)!;
    process.stderr.write(
      `run ${run + 1}/${runs}: ${ra.flowsPerSecond.toFixed(0)} vs ${rb.flowsPerSecond.toFixed(0)} flows/s ` +
        `(${(ra.flowsPerSecond / rb.flowsPerSecond).toFixed(3)}), CPU/round ${ra.cpuPerRoundUs.toFixed(0)} vs ${rb.cpuPerRoundUs.toFixed(0)} µs\n`,
    );
  }
  const [a, b] = sides as [Side, Side];
  const ratios = a.runs.map((run, index) => run.flowsPerSecond / b.runs[index]!.flowsPerSecond);
  const cpuRatios = a.runs.map((run, index) => run.cpuPerRoundUs / b.runs[index]!.cpuPerRoundUs);
  const row = (side: Side) =>
    `| ${side.name} | ${median(side.runs.map((r) => r.flowsPerSecond)).toFixed(0)} | ${median(side.runs.map((r) => r.cpuPerRoundUs)).toFixed(1)} |`;
  console.log(`q${spec.questions}-c${spec.concurrency}, ${runs} × ${values.seconds} s, interleaved\n`);
  console.log('| Server | flows/s (median) | CPU µs per round (median) |\n| --- | --- | --- |');
  console.log(row(a));
  console.log(row(b));
  console.log(
    `\n${a.name} / ${b.name}: flows/s ×${median(ratios).toFixed(3)} (pairs ${ratios.map((r) => r.toFixed(2)).join(' ')}), ` +
      `CPU per round ×${median(cpuRatios).toFixed(3)}`,
  );
} finally {
  await Promise.all(sides.map((side) => side.server.stop()));
}
