import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LoadRun } from '../load/run-load.js';
import { FEATURE_HOST } from '../servers/kinds.js';
import { ServerProcess } from '../servers/spawn.js';
import { featureCostsOf, measureFeatureCosts } from './feature-costs.js';

// The measurer spawns a real server process, which runs the built bench (bench/dist).
const main = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));

const run = (flowsPerSecond: number, cpuPerRoundUs: number): LoadRun => ({
  flows: flowsPerSecond,
  rounds: flowsPerSecond * 2,
  seconds: 1,
  flowsPerSecond,
  roundP50Ms: 1,
  roundP99Ms: 4,
  cpuPerFlowUs: cpuPerRoundUs * 2,
  cpuPerRoundUs,
  maxStateChars: 300,
});

describe('featureCostsOf', () => {
  it('compares each run of a feature with plain Parley’s run of the same turn in the same process', () => {
    // Process 2 is 20% slower throughout: comparing across processes would read that as the feature's.
    const fast = { parley: [run(1000, 300), run(1000, 310)], 'parley-use': [run(990, 303), run(980, 316)] };
    const slow = {
      parley: [run(800, 360), run(800, 372)],
      'parley-use': [run(790, 367.2), run(780, 375.72)],
    };
    const { costs, servers } = featureCostsOf([fast, slow]);
    const use = costs['parley-use']!;
    expect(use.pairs).toBe(4);
    expect(use.cpuPctByProcess.map((pct) => pct.toFixed(2))).toEqual(['1.47', '1.50']);
    // By process: (+1%, +1.94%) → +1.47%, (+2%, +1%) → +1.50%; their median +1.485%.
    expect(use.cpuPct).toBeCloseTo(1.485, 2);
    // Flows, by process: (0.99, 0.98) → 0.985, (0.9875, 0.975) → 0.98125; median 0.983125.
    expect(use.flowsPct).toBeCloseTo(1.6875, 4);
    expect(costs['parley-otel']).toBeUndefined();
    expect(servers.parley?.runs).toHaveLength(4);
    expect(servers.parley?.cpuPerRoundUs).toBe(335);
  });

  it('takes the median of the processes, so one process slow for a variant throughout does not carry the figure', () => {
    const even = {
      parley: [run(1000, 300), run(1000, 300)],
      'parley-otel': [run(1000, 303), run(1000, 303)],
    };
    // One process where the feature ran 30% slower in both turns, beside two at +1%: as pairs, 2 of
    // 6 would be +30%; as processes, the median is +1%.
    const odd = { parley: [run(1000, 300), run(1000, 300)], 'parley-otel': [run(800, 390), run(800, 390)] };
    const { costs } = featureCostsOf([even, odd, even]);
    expect(costs['parley-otel']!.cpuPct).toBeCloseTo(1, 5);
    expect(costs['parley-otel']!.flowsPct).toBeCloseTo(0, 5);
    expect(costs['parley-otel']!.pairs).toBe(6);
  });

  it('skips a process without plain runs, and pairs only the turns both sides ran', () => {
    const { costs } = featureCostsOf([
      { 'parley-otel': [run(900, 330)] },
      { parley: [run(1000, 300)], 'parley-otel': [run(900, 315), run(100, 3000)] },
    ]);
    expect(costs['parley-otel']).toMatchObject({ pairs: 1, cpuPctByProcess: [expect.closeTo(5, 5)] });
    expect(costs['parley-otel']!.cpuPct).toBeCloseTo(5, 5);
  });
});

describe('measureFeatureCosts', () => {
  it('runs plain Parley and each feature in one process, on their own ports, and stops it', async () => {
    const started: ServerProcess[] = [];
    const lines: string[] = [];
    const measured = await measureFeatureCosts(
      async () => {
        const server = await ServerProcess.start(FEATURE_HOST, { main });
        started.push(server);
        return server;
      },
      { questions: 1, concurrency: 2 },
      { processes: 1, runs: 2, runMs: 150, warmupMs: 100 },
      (line) => lines.push(line),
    );
    const urls = Object.values(started[0]!.variants);
    expect(new Set(urls).size).toBe(3);
    for (const kind of ['parley', 'parley-use', 'parley-otel'] as const) {
      expect(measured.servers[kind]!.runs).toHaveLength(2);
      expect(measured.servers[kind]!.flowsPerSecond).toBeGreaterThan(0);
    }
    expect(measured.costs['parley-use']).toMatchObject({ pairs: 2, cpuPctByProcess: [expect.any(Number)] });
    expect(measured.costs['parley-otel']!.pairs).toBe(2);
    // Turns go forwards, then backwards, so no variant always runs first.
    expect(lines.map((line) => line.split(' ')[6])).toEqual([
      'parley:',
      'parley-use:',
      'parley-otel:',
      'parley-otel:',
      'parley-use:',
      'parley:',
    ]);
    await expect(started[0]!.stats()).rejects.toThrow();
  });
});
