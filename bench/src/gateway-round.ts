/**
 * Where the gateway's round goes, and what a change to it buys (`npm run bench:gateway-round`):
 * (h)'s 2026-07-28 host > 2026-07-28 upstream flow at concurrency 16, the upstream (a Parley survey
 * server) spoken to directly and through `@parley/gateway`, each in its own process, turn by turn
 * with the order rotating. With `--base DIR` (another checkout that ran `npm run build`), that
 * checkout's gateway runs in front of the same upstream as well, so each turn reads this build's
 * gateway against the base's under the same load: the ratio of each turn is printed, then the
 * median. With `--profile`, each turn's gateway (and the base's) is profiled by its own V8 profiler
 * and its busy time charged to buckets as `bench:above-floor` charges a Parley round (see
 * `profile/round-budget.ts`), the gateway's and client's folders named as well.
 *
 *   npm run bench:gateway-round -- --profile
 *   npm run bench:gateway-round -- --base ../parley-at-ba644bf --turns 8
 *   npm run bench:gateway-round -- --floor --profile
 *   npm run bench:gateway-round -- --telemetry   # a gateway with telemetry() as well
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type LoadRun, runLoad } from './load/run-load.js';
import { isCpuProfile } from './profile/cpu-profile.js';
import { type RoundBudget, roundBudget } from './profile/round-budget.js';
import { SourceLocator } from './profile/source-location.js';
import { FORWARD_FLOOR_KIND, GATEWAY_KIND } from './servers/kinds.js';
import { cpuMicros, ServerProcess } from './servers/spawn.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    warm: { type: 'string', default: '3' },
    base: { type: 'string' },
    /** Run the forwarding floor (node:http passing the bytes on) in front of the same upstream too. */
    floor: { type: 'boolean', default: false },
    /** Run a gateway with `telemetry()` (no OpenTelemetry SDK registered) in front of it too. */
    telemetry: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    /** Keep each turn's `.cpuprofile` in bench/results/ (out of git) to open in DevTools. */
    save: { type: 'boolean', default: false },
  },
});
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const locator = new SourceLocator(REPO_ROOT);
const location = (url: string) => locator.locate(url, 0, 0);
const LOAD = { questions: 1, concurrency: 16 };
const durationMs = Number(values.seconds) * 1000;

/** One measured run of one target: its flows, the CPU per round of the process called and of the upstream. */
interface Reading {
  readonly run: LoadRun;
  readonly upstreamCpuPerRoundUs: number;
  readonly budget?: RoundBudget;
}

const upstream = await ServerProcess.start('parley', {
  env: { BENCH_MAX_SESSIONS: '2000', BENCH_QUESTION_TIMEOUT_MS: '600000' },
});
const gatewayEnv = { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_ERA: '2026-07-28' };
const targets: Record<string, ServerProcess> = {
  direct: upstream,
  gateway: await ServerProcess.start(GATEWAY_KIND, { env: gatewayEnv }),
};
if (values.base)
  targets.base = await ServerProcess.start(GATEWAY_KIND, {
    env: gatewayEnv,
    main: join(values.base, 'bench', 'dist', 'servers', 'main.js'),
  });
if (values.floor) targets.floor = await ServerProcess.start(FORWARD_FLOOR_KIND, { env: gatewayEnv });
if (values.telemetry)
  targets.traced = await ServerProcess.start(GATEWAY_KIND, {
    env: { ...gatewayEnv, BENCH_GATEWAY_TELEMETRY: '1' },
  });
const names = Object.keys(targets);
const readings: Record<string, Reading[]> = Object.fromEntries(names.map((name) => [name, []]));

async function measure(name: string, profiled: boolean): Promise<Reading> {
  const server = targets[name]!;
  await runLoad(server, { ...LOAD, durationMs: Number(values.warm) * 1000 });
  if (profiled) await server.startProfile();
  const before = await upstream.stats();
  let run: LoadRun;
  let text: string | undefined;
  try {
    run = await runLoad(server, { ...LOAD, durationMs });
  } finally {
    if (profiled) text = await server.stopProfile();
  }
  const after = await upstream.stats();
  const upstreamCpuPerRoundUs = cpuMicros(before, after) / run.rounds;
  if (text === undefined) return { run, upstreamCpuPerRoundUs };
  const profile: unknown = JSON.parse(text);
  if (!isCpuProfile(profile)) throw new Error(`${name} answered something that is not a CPU profile.`);
  if (values.save)
    writeFileSync(
      join(REPO_ROOT, 'bench', 'results', `gateway-round-${name}-${readings[name]!.length}.cpuprofile`),
      text,
    );
  return { run, upstreamCpuPerRoundUs, budget: roundBudget(profile, run.rounds, location) };
}

try {
  for (let i = 0; i < Number(values.turns); i++) {
    const order = names.map((_, at) => names[(at + i) % names.length]!);
    for (const name of order) {
      const reading = await measure(name, values.profile && name !== 'direct');
      readings[name]!.push(reading);
      process.stderr.write(
        `turn ${i + 1}: ${name} ${reading.run.flowsPerSecond.toFixed(0)} flows/s, ` +
          `${reading.run.cpuPerRoundUs.toFixed(0)} µs CPU a round (upstream ${reading.upstreamCpuPerRoundUs.toFixed(0)})\n`,
      );
    }
  }
} finally {
  await Promise.all(Object.values(targets).map((server) => server.stop()));
}

const med = (name: string, of: (reading: Reading) => number) => median(readings[name]!.map(of));
/** The median over turns of a ratio taken turn by turn. */
const pairedRatio = (a: string, b: string, of: (reading: Reading) => number) =>
  median(readings[a]!.map((reading, turn) => of(reading) / of(readings[b]![turn]!)));
const flows = (reading: Reading) => reading.run.flowsPerSecond;
const cpu = (reading: Reading) => reading.run.cpuPerRoundUs;

console.log(
  `(h) 2026-07-28 > 2026-07-28, c16, ${values.turns} turns of ${values.seconds} s, medians ` +
    `(machine load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
console.log('');
console.log(
  '| Target | flows/s | CPU µs a round (process called) | upstream CPU µs a round | requestState chars |',
);
console.log('| --- | --- | --- | --- | --- |');
for (const name of names)
  console.log(
    `| ${name} | ${med(name, flows).toFixed(0)} | ${med(name, cpu).toFixed(1)} | ${med(name, (r) => r.upstreamCpuPerRoundUs).toFixed(1)} | ${med(name, (r) => r.run.maxStateChars)} |`,
  );
console.log('');
console.log(`gateway / direct flows/s, turn by turn: ${pairedRatio('gateway', 'direct', flows).toFixed(3)}×`);
if (values.telemetry)
  console.log(
    `traced / gateway flows/s, turn by turn: ${pairedRatio('traced', 'gateway', flows).toFixed(3)}×`,
  );
if (values.floor)
  console.log(`floor / direct flows/s, turn by turn: ${pairedRatio('floor', 'direct', flows).toFixed(3)}×`);
if (values.base) {
  console.log(`base / direct flows/s, turn by turn: ${pairedRatio('base', 'direct', flows).toFixed(3)}×`);
  console.log(`gateway / base flows/s, turn by turn: ${pairedRatio('gateway', 'base', flows).toFixed(3)}×`);
  console.log(`gateway / base CPU a round, turn by turn: ${pairedRatio('gateway', 'base', cpu).toFixed(3)}×`);
}
if (values.profile) {
  const profiled = names.filter((name) => name !== 'direct');
  const budgets = (name: string) => readings[name]!.map((reading) => reading.budget!);
  const buckets = [
    ...new Set(
      profiled.flatMap((name) => budgets(name).flatMap((one) => one.buckets.map((row) => row.bucket))),
    ),
  ];
  const usOf = (name: string, bucket: string) =>
    median(budgets(name).map((one) => one.buckets.find((row) => row.bucket === bucket)?.us ?? 0));
  const rows = buckets
    .map((bucket) => ({ bucket, us: profiled.map((name) => usOf(name, bucket)) }))
    .sort((a, b) => b.us[0]! - a.us[0]!);
  console.log('');
  console.log(
    `| Where the gateway round goes (profiled) | ${profiled.map((name) => `${name} µs`).join(' | ')} |`,
  );
  console.log(`| --- | ${profiled.map(() => '---').join(' | ')} |`);
  for (const row of rows.filter((one) => Math.max(...one.us) >= 1))
    console.log(`| ${row.bucket} | ${row.us.map((us) => us.toFixed(1)).join(' | ')} |`);
  console.log(
    `| **all** | ${profiled.map((name) => `**${median(budgets(name).map((one) => one.perRoundUs)).toFixed(1)}**`).join(' | ')} |`,
  );
}
