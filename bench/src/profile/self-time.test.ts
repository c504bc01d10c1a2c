import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, isCpuProfile } from './cpu-profile.js';
import { originOf, summarizeProfile } from './self-time.js';
import { SourceLocator } from './source-location.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function spinForSelfTime(ms: number): number {
  let x = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 100_000; i++) x = (x * 31 + i) % 1_000_003;
  }
  return x;
}

function callsTheSpinner(ms: number): number {
  return spinForSelfTime(ms);
}

async function profileOf(work: () => void): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  work();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  return profile as CpuProfile;
}

/** A profile with known samples: `ticks` of [node id, microseconds]. */
function syntheticProfile(ticks: readonly (readonly [number, number])[]): CpuProfile {
  const bench = `file://${REPO_ROOT}bench/src/workloads/busy.js`;
  const frame = (functionName: string, url: string, lineNumber: number) => ({
    functionName,
    url,
    lineNumber,
    columnNumber: 0,
  });
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2, 5, 6] },
      { id: 2, callFrame: frame('handle', bench, 9), children: [3] },
      { id: 3, callFrame: frame('work', bench, 19), children: [4] },
      { id: 4, callFrame: frame('parse', `file://${REPO_ROOT}node_modules/zod/index.js`, 99) },
      { id: 5, callFrame: frame('(garbage collector)', '', -1) },
      { id: 6, callFrame: frame('(idle)', '', -1) },
    ],
    startTime: 0,
    endTime: ticks.reduce((sum, [, us]) => sum + us, 0),
    // A sample's time is the gap to the next one: the deltas are shifted by one.
    samples: ticks.map(([id]) => id),
    timeDeltas: [0, ...ticks.map(([, us]) => us)].slice(0, ticks.length + 1),
  };
}

describe('summarizeProfile', () => {
  it('finds the function that burns the time, with its file, in a real V8 profile', async () => {
    const profile = await profileOf(() => callsTheSpinner(300));
    expect(isCpuProfile(profile)).toBe(true);
    const summary = summarizeProfile(profile, new SourceLocator(REPO_ROOT), {
      limit: 5,
      firstParty: ['bench'],
    });
    // Busy time is the sum of the samples' gaps, so it can never exceed the profile's span. How the
    // samples fall (how much goes to the spinner, its caller or the runtime) depends on the
    // scheduler on a busy machine, so the shares are tested on a known profile below.
    const spanMs = (profile.endTime - profile.startTime) / 1000;
    expect(summary.busyMs).toBeGreaterThan(0);
    expect(summary.busyMs).toBeLessThanOrEqual(spanMs);
    const spinner = summary.topSelf.find((row) => row.functionName === 'spinForSelfTime');
    expect(spinner?.location).toMatch(/^bench\/src\/profile\/self-time\.test\.ts:\d+$/);
    // Total time credits the caller with what it called.
    const caller = summary.topTotal.find((row) => row.functionName === 'callsTheSpinner');
    expect(caller?.ms).toBeGreaterThanOrEqual(spinner!.ms);
  });

  it('splits self, total and attributed time, and shares of the busy time, from the sample gaps', () => {
    const profile = syntheticProfile([
      [3, 600], // work, itself
      [4, 200], // parse (zod), called by work
      [2, 100], // handle, itself
      [5, 100], // the garbage collector
      [6, 5000], // idle: not busy
      [3, 0], // the last sample has no gap after it
    ]);
    const summary = summarizeProfile(profile, new SourceLocator(REPO_ROOT), {
      limit: 5,
      firstParty: ['bench'],
    });
    const rows = (list: readonly { functionName: string; ms: number; percent: number }[]) =>
      list.map(({ functionName, ms, percent }) => [functionName, ms, percent]);
    expect(summary.busyMs).toBe(1);
    expect(rows(summary.topSelf)).toEqual([
      ['work', 0.6, 60],
      ['parse', 0.2, 20],
      ['handle', 0.1, 10],
      ['(garbage collector)', 0.1, 10],
    ]);
    expect(summary.topSelf[0]?.location).toBe('bench/src/workloads/busy.js:20');
    // Total time credits each first-party caller with everything under it; self time does not.
    expect(rows(summary.topTotal)).toEqual([
      ['handle', 0.9, 90],
      ['work', 0.8, 80],
    ]);
    // Attributed time lands on the nearest first-party frame: zod's parse is charged to work.
    expect(rows(summary.topAttributed)).toEqual([
      ['work', 0.8, 80],
      ['handle', 0.1, 10],
    ]);
    expect(summary.byOrigin).toEqual([
      { origin: 'bench', ms: 0.7, percent: 70 },
      { origin: 'zod', ms: 0.2, percent: 20 },
      { origin: 'gc', ms: 0.1, percent: 10 },
    ]);
    expect(summary.byParty).toEqual([]);
  });

  it('counts nothing for a profile without samples', () => {
    const empty: CpuProfile = { nodes: [], startTime: 0, endTime: 0 };
    expect(summarizeProfile(empty, new SourceLocator(REPO_ROOT), { limit: 5, firstParty: [] })).toEqual({
      busyMs: 0,
      topSelf: [],
      topTotal: [],
      topAttributed: [],
      byOrigin: [],
      byParty: [],
    });
  });

  it('charges each sample to the nearest party on its stack, the collector to gc, the rest to the runtime', () => {
    const ticks = [
      [3, 600], // work (the app), itself
      [4, 200], // parse (the library), called by work
      [2, 100], // handle (the app), itself
      [5, 100], // the garbage collector
      [6, 5000], // idle: not busy
      [3, 0],
    ] as const;
    const byParty = (parties: Record<string, readonly string[]>) =>
      summarizeProfile(syntheticProfile(ticks), new SourceLocator(REPO_ROOT), {
        limit: 5,
        firstParty: ['bench'],
        parties,
      }).byParty.map(({ party, ms, percent }) => [party, ms, percent]);
    // zod's parse is the app's work when only the app is a party...
    expect(byParty({ app: ['bench'] })).toEqual([
      ['app', 0.9, 90],
      ['gc', 0.1, 10],
    ]);
    // ...and the library's when the library is one too: the nearest party wins.
    expect(byParty({ app: ['bench'], library: ['zod'] })).toEqual([
      ['app', 0.7, 70],
      ['library', 0.2, 20],
      ['gc', 0.1, 10],
    ]);
    // Code of no party counts for the runtime.
    expect(byParty({ library: ['zod'] })).toEqual([
      ['runtime', 0.7, 70],
      ['library', 0.2, 20],
      ['gc', 0.1, 10],
    ]);
    // Without parties, nothing is split this way.
    expect(byParty({})).toEqual([]);
  });
});

describe('originOf', () => {
  it('names the package or runtime part code belongs to', () => {
    const root = 'file:///work/main';
    expect(originOf(`${root}/node_modules/zod/v4/core/schemas.js`, 'parse')).toBe('zod');
    expect(originOf(`${root}/node_modules/@modelcontextprotocol/server/dist/index.mjs`, 'x')).toBe(
      '@modelcontextprotocol/server',
    );
    expect(originOf(`${root}/packages/server/dist/run/run-call.js`, 'runCall')).toBe('@parley/server');
    expect(originOf('node:internal/streams/readable', 'Readable')).toBe('node:internal');
    expect(originOf('', '(garbage collector)')).toBe('gc');
    expect(originOf('', 'writev')).toBe('native');
  });
});

describe('isCpuProfile', () => {
  it('tells a profile from other JSON', () => {
    expect(isCpuProfile({ nodes: [], startTime: 0, endTime: 1, samples: [], timeDeltas: [] })).toBe(true);
    expect(isCpuProfile({ nodes: 'x' })).toBe(false);
    expect(isCpuProfile(null)).toBe(false);
    expect(isCpuProfile({ nodes: [], samples: 3 })).toBe(false);
  });
});
