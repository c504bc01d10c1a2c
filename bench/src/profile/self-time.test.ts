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

describe('summarizeProfile', () => {
  it('finds the function that burns the time, with its file, in a real V8 profile', async () => {
    const profile = await profileOf(() => callsTheSpinner(300));
    expect(isCpuProfile(profile)).toBe(true);
    const summary = summarizeProfile(profile, new SourceLocator(REPO_ROOT), {
      limit: 5,
      firstParty: ['bench'],
    });
    // Busy time is the sum of the samples' gaps, so it can never exceed the profile's span. How much
    // of the 300 ms spin gets sampled depends on the scheduler (a starved process loses samples), so
    // the lower bound is only that the spin was seen at all.
    const spanMs = (profile.endTime - profile.startTime) / 1000;
    expect(summary.busyMs).toBeGreaterThan(0);
    expect(summary.busyMs).toBeLessThanOrEqual(spanMs);
    const spinner = summary.topSelf.find((row) => row.functionName === 'spinForSelfTime');
    expect(spinner?.location).toMatch(/^bench\/src\/profile\/self-time\.test\.ts:\d+$/);
    expect(spinner?.percent).toBeGreaterThan(50);
    // Total time credits the caller with what it called; self time does not.
    const caller = summary.topTotal.find((row) => row.functionName === 'callsTheSpinner');
    expect(caller?.ms).toBeGreaterThanOrEqual(spinner!.ms);
    expect(summary.topSelf.find((row) => row.functionName === 'callsTheSpinner')?.ms ?? 0).toBeLessThan(
      spinner!.ms / 10,
    );
    // Attributed time lands on the nearest first-party frame: the spinner itself, not its caller.
    expect(summary.topAttributed[0]?.functionName).toBe('spinForSelfTime');
    expect(summary.byOrigin[0]?.origin).toBe('bench');
  });

  it('counts nothing for a profile without samples', () => {
    const empty: CpuProfile = { nodes: [], startTime: 0, endTime: 0 };
    expect(summarizeProfile(empty, new SourceLocator(REPO_ROOT), { limit: 5, firstParty: [] })).toEqual({
      busyMs: 0,
      topSelf: [],
      topTotal: [],
      topAttributed: [],
      byOrigin: [],
    });
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
