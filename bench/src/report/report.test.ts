import { describe, expect, it } from 'vitest';
import type { LoadRun } from '../load/run-load.js';
import { type FeatureCosts, featureCostsOf, type ProcessRuns } from '../workloads/feature-costs.js';
import type { PendingMemory } from '../workloads/memory.js';
import type { PendingCost, PendingFloors } from '../workloads/pending-cost.js';
import { checkGoals } from './goals.js';
import { renderMarkdown } from './markdown.js';
import {
  goalOf as goal,
  loadSummary as load,
  measuredResults as measured,
  memoryReading as memory,
} from './results-fixture.js';

/** One measured run of the feature-cost workload: flows/s and server CPU per round. */
const run = (flowsPerSecond: number, cpuPerRoundUs: number): LoadRun => ({
  flows: flowsPerSecond * 5,
  rounds: flowsPerSecond * 10,
  seconds: 5,
  flowsPerSecond,
  roundP50Ms: 5,
  roundP99Ms: 20,
  cpuPerFlowUs: cpuPerRoundUs * 2,
  cpuPerRoundUs,
  maxStateChars: 400,
});

/** Feature costs from one process's runs, turn by turn. */
const featureCosts = (runs: ProcessRuns): FeatureCosts => ({
  shape: { questions: 1, concurrency: 16 },
  timing: { processes: 1, runs: runs.parley?.length ?? 0, runMs: 5000, warmupMs: 1000 },
  ...featureCostsOf([runs]),
});

const pending = (dropReleased: boolean): PendingMemory => ({
  questions: 1000,
  timeoutMs: 15_000,
  resumeGraceMs: 5000,
  before: memory(14),
  setupMs: 2000,
  pending: memory(30, 1000),
  afterTimeout: { ...memory(16), releasedInMs: 14_000 },
  afterSessionEnd: { ...memory(16), releasedInMs: 20 },
  afterDrop: dropReleased
    ? { ...memory(16), releasedInMs: 5030 }
    : { ...memory(25, 1000), releasedInMs: undefined },
});

const cost = (heapKbEach: number): PendingCost => ({
  held: 1000,
  before: memory(14, 50),
  after: memory(14 + heapKbEach / 1024, 1050),
  heapKbEach,
});

const floors: PendingFloors = { heldResponse: cost(5.5), sdkStdio: cost(7.9), parleyStdio: cost(16.2) };

describe('checkGoals', () => {
  it('lists every goal as not measured, never met, when nothing ran', () => {
    const goals = checkGoals(measured());
    expect(goals).toHaveLength(19);
    for (const check of goals) expect(check.met).toBeUndefined();
  });

  it('checks throughput and p99 against the SDK and both floors from the same run', () => {
    const floors = { floor: load(1800, 10, 100), 'json-floor': load(1500, 12, 130) };
    const flows = { 'q1-c16': { parley: load(1000, 20, 300), sdk: load(400, 25, 900), ...floors } };
    const results = measured({ flows });
    expect(goal(results, 'Parley ≥ 2.5× the raw SDK')).toMatchObject({ measured: '2.50×', met: true });
    expect(goal(results, 'Parley ≥ 60% of the JSON floor')).toMatchObject({ measured: '67%', met: true });
    expect(goal(results, 'Parley ≥ 50% of the bare floor')).toMatchObject({ measured: '56%', met: true });
    expect(goal(results, 'Round p99')).toMatchObject({ met: true });

    const slower = measured({
      flows: { 'q1-c16': { parley: load(600, 30, 300), sdk: load(400, 25, 900), ...floors } },
    });
    expect(goal(slower, 'Parley ≥ 2.5× the raw SDK')).toMatchObject({
      measured: '1.50×',
      met: false,
      note: '67% short',
    });
    expect(goal(slower, 'Parley ≥ 60% of the JSON floor')).toMatchObject({
      measured: '40%',
      met: false,
      note: '1.5× too slow',
    });
    expect(goal(slower, 'Parley ≥ 50% of the bare floor')).toMatchObject({
      met: false,
      note: '1.5× too slow',
    });
    // With Parley's profile, the note says how much of its round is the SDK's own work.
    const profiled = measured({
      flows: slower.flows!,
      profiles: {
        parley: {
          busyMs: 1000,
          topSelf: [],
          topTotal: [],
          topAttributed: [],
          byOrigin: [],
          byParty: [
            { party: 'Parley', ms: 500, percent: 50 },
            { party: 'the SDK', ms: 400, percent: 40 },
          ],
          file: 'bench/results/parley-a-c16.cpuprofile',
        },
      },
    });
    expect(goal(profiled, 'Parley ≥ 60% of the JSON floor').note).toBe(
      "1.5× too slow; the SDK's part of a Parley round alone is 120 µs (40% of its profile); 60% of the floor allows about 217 µs a round",
    );
    expect(goal(slower, 'Round p99')).toMatchObject({ met: false, note: "1.20× the SDK's" });
    // With the SDK floor measured, the note says how far any server the SDK serves gets.
    const withSdkFloor = measured({
      flows: { 'q1-c16': { ...slower.flows!['q1-c16'], 'sdk-floor': load(750, 15, 240) } },
    });
    expect(goal(withSdkFloor, 'Parley ≥ 60% of the JSON floor').note).toBe(
      '1.5× too slow; the SDK floor (this tool served by the official SDK alone) reaches 50% (240 µs a round against 130); Parley is 80% of the SDK floor',
    );
  });

  it('checks each feature on the round path against Parley in the same processes, by CPU per round', () => {
    const results = measured({
      featureCosts: featureCosts({
        parley: [run(1000, 300), run(1000, 300)],
        'parley-use': [run(990, 306), run(990, 306)],
        'parley-otel': [run(900, 330), run(900, 330)],
      }),
    });
    expect(goal(results, 'an empty server.use()')).toMatchObject({
      measured: '2.0% CPU per round (flows/s -1.0%)',
      met: true,
      note: 'median of 1 process, 2 pairs (by process: 2.0%)',
    });
    expect(goal(results, 'telemetry() without an exporter')).toMatchObject({
      measured: '10.0% CPU per round (flows/s -10.0%)',
      met: false,
      note: 'median of 1 process, 2 pairs (by process: 10.0%); 3.3× the bound',
    });
  });

  it('checks that replay stays cheap: CPU per round of 20 questions against 1', () => {
    const flows = { 'q1-c16': { parley: load(1, 1, 300) }, 'q20-c16': { parley: load(1, 1, 800) } };
    expect(goal(measured({ flows }), 'Parley CPU per round')).toMatchObject({ met: true });
    const costly = { 'q1-c16': { parley: load(1, 1, 300) }, 'q20-c16': { parley: load(1, 1, 1000) } };
    expect(goal(measured({ flows: costly }), 'Parley CPU per round')).toMatchObject({ met: false });
  });

  it('checks seal + open at the worst flow length, and the state overhead beyond the answers', () => {
    const results = measured({
      stateCodec: [
        { questions: 1, parleyUs: 12, sdkUs: 20, aesGcmUs: 4 },
        { questions: 20, parleyUs: 60, sdkUs: 40, aesGcmUs: 5 },
      ],
      wireState: {
        parley: { stateChars: [100, 150], answerBytes: [0, 21], maxOverheadChars: 129, charsPerAnswer: 50 },
      },
    });
    expect(goal(results, 'Seal + open')).toMatchObject({ met: false, note: '1.5× the bound' });
    expect(goal(results, 'State size')).toMatchObject({ met: true });
  });

  it('misses the disconnect goal when a dropped connection leaves questions waiting', () => {
    const modern = { parley: { flows: 10_000, before: memory(14), inFlight: memory(18), after: memory(18) } };
    const held = measured({ memory: { modern, pending: pending(false) } });
    expect(goal(held, 'Modern flows in flight')).toMatchObject({ met: true });
    expect(goal(held, '2025-era questions pending')).toMatchObject({ met: true });
    expect(goal(held, '2025-era questions released on disconnect')).toMatchObject({
      met: false,
      note: expect.stringMatching(/until the question timeout/),
    });
    const released = measured({ memory: { modern, pending: pending(true) } });
    expect(goal(released, '2025-era questions released on disconnect')).toMatchObject({
      met: true,
      measured: expect.stringMatching(/dropped: 0 waiting after 5030 ms \(resume grace 5000 ms\)/),
    });
  });

  it('checks a pending 2025-era question against 1.1× its floor, and an idle session against 12 KB', () => {
    // 1,000 questions took 16 MB: 16.4 KB each, 1.22× the 13.4 KB floor.
    const costly = measured({ memory: { modern: {}, pending: pending(true), floors } });
    expect(goal(costly, 'Heap per pending 2025-era question')).toMatchObject({
      target: '≤ 1.10× its floor',
      measured: '16.4 KB (1000 pending), 1.22× the floor',
      met: false,
      note: 'floor: 5.5 KB held HTTP response + 7.9 KB SDK request = 13.4 KB',
    });
    expect(goal(costly, 'Heap per idle 2025-era session')).toMatchObject({ met: undefined });
    const lean = measured({
      memory: {
        modern: {},
        pending: { ...pending(true), pending: memory(14 + 14.5 / 1.024, 1000) },
        floors,
        sessions: {
          sessions: 100,
          before: memory(14),
          open: memory(15.1),
          heapKbPerSession: 11.3,
          rssKbPerSession: 20,
        },
      },
    });
    expect(goal(lean, 'Heap per pending 2025-era question')).toMatchObject({
      measured: '14.5 KB (1000 pending), 1.08× the floor',
      met: true,
    });
    expect(goal(lean, 'Heap per idle 2025-era session')).toMatchObject({
      target: '≤ 12 KB',
      measured: '11.3 KB (100 sessions)',
      met: true,
    });
  });

  it('reads idle sessions beyond their warm-up, shows the cold cost too, and the raw SDK sessions beside them', () => {
    const idle = (kb: number) => ({
      sessions: 80,
      warmup: 20,
      cold: memory(14),
      before: memory(16),
      open: memory(16 + (kb * 80) / 1024),
      heapKbPerSession: kb,
      coldHeapKbPerSession: 102.4,
      rssKbPerSession: 90,
    });
    const partial = measured({
      memory: { modern: {}, pending: pending(true), sessions: idle(11.2), sdkSessions: idle(12.1) },
    });
    expect(goal(partial, 'Heap per idle 2025-era session')).toMatchObject({
      measured: '11.2 KB (80 sessions)',
      met: true,
      note: "the raw SDK's own idle session: 12.1 KB",
    });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain(
      '| Parley: 20 warm-up sessions open | 16.0 / 80.0 | 102.4 KB heap from cold (one-time costs included) |',
    );
    expect(text).toContain('| Parley: 80 sessions more | 16.9 / 84.4 | 11.2 KB heap, 90.0 KB RSS |');
    expect(text).toContain(
      '| raw SDK, its own HTTP sessions: 80 sessions more | 16.9 / 84.7 | 12.1 KB heap, 90.0 KB RSS |',
    );
  });

  it('does not divide the heap by questions that were not pending at the reading', () => {
    // Asking took longer than the question timeout: 640 of 1,000 were still pending.
    const partial = measured({
      memory: { modern: {}, pending: { ...pending(true), pending: memory(30, 640) }, floors },
    });
    expect(goal(partial, 'Heap per pending 2025-era question')).toMatchObject({
      met: undefined,
      note: 'only 640 of 1000 questions were pending at the reading',
    });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain('| not measured: only 640 of 1,000 were pending at the reading | — |');
  });

  it('cannot check a pending question without the floors measured in the same run', () => {
    const results = measured({ memory: { modern: {}, pending: pending(true) } });
    expect(goal(results, 'Heap per pending 2025-era question')).toMatchObject({ met: undefined });
  });

  it('checks the renderer against the budgets the lab reports', () => {
    const renderer = {
      status: 'ok' as const,
      gzipBytes: 16 * 1024,
      minifiedBytes: 40_000,
      renderMs: 9,
      firstRenderMs: 80,
      fields: 20,
      runs: 50,
      goals: { gzipBytes: 15 * 1024, renderMs: 16 },
    };
    const results = measured({ renderer });
    expect(goal(results, 'Form renderer size')).toMatchObject({ met: false });
    expect(goal(results, '20-field form render')).toMatchObject({ met: true });
    const failed = measured({ renderer: { status: 'failed', reason: 'no Chromium at /usr/bin/chromium' } });
    expect(goal(failed, 'Form renderer size')).toMatchObject({
      met: undefined,
      note: 'no Chromium at /usr/bin/chromium',
    });
  });
});

describe('renderMarkdown', () => {
  it('shows the machine, the goals and each workload that ran, escaping table cells', () => {
    const partial = measured({
      flows: {
        'q1-c16': {
          parley: load(1000, 20, 300),
          sdk: load(400, 25, 900),
          floor: load(1800, 10, 100),
          'json-floor': load(1500, 12, 130),
          'sdk-floor': load(1250, 14, 200),
        },
      },
      featureCosts: featureCosts({ parley: [run(1000, 300)], 'parley-use': [run(990, 306)] }),
      handshake: [{ server: 'sdk', transport: 'http', status: 'cannot', reason: 'no session | no push' }],
    });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain('Test CPU, 2 cores, 24 GB, Node v20.20.2');
    expect(text).toContain('| Parley ≥ 2.5× the raw SDK flows/s, (a) c16 | ≥ 2.50× | 2.50× | **met** |');
    expect(text).toContain('| c16 vs JSON floor | c16 vs SDK floor |');
    expect(text).toContain('| Parley | — | — | 1,000 | 5.00 / 20.00 | 2.50× | 56% | 67% | 80% |');
    expect(text).toContain('| JSON floor | — | — | 1,500 | 3.00 / 12.00 | 3.75× | 83% | 100% | 120% |');
    expect(text).toContain('| SDK floor | — | — | 1,250 | 3.50 / 14.00 | 3.13× | 69% | 83% | 100% |');
    expect(text).toContain('| Parley + an empty `server.use()` | 990 | −1.0% | 306 | +2.0% | +2.0% |');
    expect(text).toContain('(1 turn of 5.0 s in each of one process)');
    expect(text).toContain(
      '| telemetry() without an exporter costs ≤ 3% CPU per round, (a) c16 | ≤ 3% | — | not measured |',
    );
    expect(text).toContain('**cannot**: no session \\| no push');
    expect(text).not.toContain('### (c)');
    expect(text).not.toContain('what a pending 2025-era question costs');
  });

  it("names each profile's busy time by origin and by on whose behalf it was spent", () => {
    const row = {
      functionName: 'parseJsonBody',
      location: 'packages/server/src/serve/read-body.ts:24',
      ms: 20,
      percent: 2,
    };
    const partial = measured({
      profiles: {
        parley: {
          busyMs: 1000,
          topSelf: [row],
          topTotal: [row],
          topAttributed: [row],
          byOrigin: [
            { origin: '@parley/server', ms: 300, percent: 30 },
            { origin: 'zod', ms: 200, percent: 20 },
          ],
          byParty: [
            { party: 'Parley', ms: 500, percent: 50 },
            { party: 'the SDK', ms: 400, percent: 40 },
            { party: 'gc', ms: 100, percent: 10 },
          ],
          file: 'bench/results/parley-a-c16.cpuprofile',
        },
      },
    });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain(
      '**Parley** (1,000 ms busy; by origin: @parley/server 30%, zod 20%; on whose behalf: Parley 50%, the SDK 40%, gc 10%; profile: `bench/results/parley-a-c16.cpuprofile`)',
    );
    expect(text).toContain('| `parseJsonBody` | `packages/server/src/serve/read-body.ts:24` | 2.0% |');
  });

  it('shows what a pending 2025-era question costs, floors first, each against the floor beneath it', () => {
    const partial = measured({ memory: { modern: {}, pending: pending(true), floors } });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    const table = text.slice(text.indexOf('### (f) what a pending 2025-era question costs'));
    const rows = table.split('\n').filter((line) => line.startsWith('| ('));
    expect(rows.map((row) => row.split(' | ')[0])).toEqual([
      '| (i) bare node:http: one open response (SSE head + one event), nothing else',
      '| (ii) raw SDK: a tool awaiting `ctx.mcpReq.elicitInput`',
      '| (iii) Parley: `ctx.elicit`',
      '| (iv) Parley: `ctx.elicit`',
    ]);
    expect(table).toContain('| HTTP/1.1 | 1,000 beyond 50 warm-up | 5.5 | floor |');
    expect(table).toContain('| floor over HTTP: (i) + (ii) | HTTP sessions | — | 13.4 | floor |');
    expect(table).toContain('| stdio | 1,000 beyond 50 warm-up | 16.2 | 2.05× (ii) |');
    // 16 MB for 1,000 questions: 16.4 KB each, 1.22× the 13.4 KB floor over HTTP.
    expect(table).toContain(
      '| HTTP sessions | 1,000 from idle, over 10 sessions | 16.4 | 1.22× (i) + (ii) |',
    );
    expect(table).toContain('| goal | HTTP sessions |  | 14.7 | ≤ 1.1× (i) + (ii) |');
  });
});
