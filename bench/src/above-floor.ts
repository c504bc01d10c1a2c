/**
 * What Parley adds to a round above the SDK floor, named (`npm run bench:above-floor`): Parley and
 * the SDK floor (the JSON floor's tool served through the official SDK's own 2026-07-28 path) each
 * serve (a)'s one-question flow at concurrency 16 in their own process, profiled by their own V8
 * profiler after warm-up, turn by turn (`--turns`, default 3, the order alternating). Each profile's
 * busy time is charged to buckets that mean the same in both (see `profile/round-budget.ts`) and
 * divided by the rounds served while it ran: microseconds per round, side by side, with what the
 * two servers share (the SDK, the runtime's HTTP work, the collector) and what only Parley does
 * (its folders). The median of the turns is printed for each bucket.
 *
 *   npm run bench:above-floor
 *   npm run bench:above-floor -- --turns 5 --seconds 6
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad } from './load/run-load.js';
import { isCpuProfile } from './profile/cpu-profile.js';
import { type RoundBudget, roundBudget } from './profile/round-budget.js';
import { SourceLocator } from './profile/source-location.js';
import { ServerProcess } from './servers/spawn.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    warm: { type: 'string', default: '3' },
    /** Keep each turn's `.cpuprofile` in bench/results/ (out of git) to open in DevTools. */
    save: { type: 'boolean', default: false },
  },
});
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const locator = new SourceLocator(REPO_ROOT);
const location = (url: string) => locator.locate(url, 0, 0);
const LOAD = { questions: 1, concurrency: 16 };

/** One profiled turn of one server: its round budget, and the flows per second while profiled. */
async function turn(server: ServerProcess): Promise<RoundBudget & { readonly flowsPerSecond: number }> {
  await runLoad(server, { ...LOAD, durationMs: Number(values.warm) * 1000 });
  await server.startProfile();
  let text: string;
  let rounds = 0;
  let flowsPerSecond = 0;
  try {
    const run = await runLoad(server, { ...LOAD, durationMs: Number(values.seconds) * 1000 });
    rounds = run.rounds;
    flowsPerSecond = run.flowsPerSecond;
  } finally {
    text = await server.stopProfile();
  }
  const profile: unknown = JSON.parse(text);
  if (!isCpuProfile(profile)) throw new Error(`${server.kind} answered something that is not a CPU profile.`);
  if (values.save)
    writeFileSync(
      join(REPO_ROOT, 'bench', 'results', `above-floor-${server.kind}-${++saved}.cpuprofile`),
      text,
    );
  return { ...roundBudget(profile, rounds, location), flowsPerSecond };
}
let saved = 0;

const kinds = ['parley', 'sdk-floor'] as const;
const turns: Record<(typeof kinds)[number], (RoundBudget & { flowsPerSecond: number })[]> = {
  parley: [],
  'sdk-floor': [],
};
const servers = {
  parley: await ServerProcess.start('parley'),
  'sdk-floor': await ServerProcess.start('sdk-floor'),
};
try {
  for (let i = 0; i < Number(values.turns); i++) {
    const order = i % 2 === 0 ? kinds : ([...kinds].reverse() as (typeof kinds)[number][]);
    for (const kind of order) {
      process.stderr.write(`turn ${i + 1}: ${kind}\n`);
      turns[kind].push(await turn(servers[kind]));
    }
  }
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
}

/** The median per round of one bucket over a server's turns (0 where a turn had none of it). */
const bucketMedian = (kind: (typeof kinds)[number], bucket: string) =>
  median(turns[kind].map((one) => one.buckets.find((row) => row.bucket === bucket)?.us ?? 0));
const buckets = [
  ...new Set(kinds.flatMap((kind) => turns[kind].flatMap((one) => one.buckets.map((row) => row.bucket)))),
];
const rows = buckets
  .map((bucket) => ({
    bucket,
    parley: bucketMedian('parley', bucket),
    floor: bucketMedian('sdk-floor', bucket),
  }))
  .sort((a, b) => b.parley - b.floor - (a.parley - a.floor));
const total = (kind: (typeof kinds)[number]) => median(turns[kind].map((one) => one.perRoundUs));
const flows = (kind: (typeof kinds)[number]) => median(turns[kind].map((one) => one.flowsPerSecond));

console.log(
  `(a) c16, ${values.turns} profiled turns of ${values.seconds} s each: server CPU per round, median of the turns ` +
    `(machine load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
console.log('');
console.log('| Where the round goes | Parley µs | SDK floor µs | Parley − floor µs |');
console.log('| --- | --- | --- | --- |');
for (const row of rows.filter((one) => Math.max(one.parley, one.floor) >= 1))
  console.log(
    `| ${row.bucket} | ${row.parley.toFixed(1)} | ${row.floor.toFixed(1)} | ${(row.parley - row.floor).toFixed(1)} |`,
  );
console.log(
  `| **all** | **${total('parley').toFixed(1)}** | **${total('sdk-floor').toFixed(1)}** | **${(total('parley') - total('sdk-floor')).toFixed(1)}** |`,
);
console.log('');
console.log(
  `flows/s while profiled: Parley ${flows('parley').toFixed(0)}, SDK floor ${flows('sdk-floor').toFixed(0)} ` +
    `(${((flows('parley') / flows('sdk-floor')) * 100).toFixed(0)}%; the profiler slows both)`,
);
