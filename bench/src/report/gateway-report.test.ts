import { describe, expect, it } from 'vitest';
import type { PendingCost } from '../workloads/pending-cost.js';
import { checkGoals } from './goals.js';
import { renderMarkdown } from './markdown.js';
import type { GatewayResults } from './results.js';
import {
  goalOf as goal,
  loadSummary as load,
  measuredResults,
  memoryReading as memory,
} from './results-fixture.js';

/** `held` calls (beyond `warmup`) that took `kb` each. */
const cost = (kb: number, held: number, warmup: number): PendingCost => ({
  held,
  before: memory(20, warmup),
  after: memory(20 + (kb * held) / 1024, warmup + held),
  heapKbEach: kb,
});

function gateway(modernThrough: number, parkedKb: number): GatewayResults {
  return {
    shapes: [
      { questions: 1, concurrency: 1 },
      { questions: 1, concurrency: 16 },
    ],
    flows: {
      'q1-c1': { 'direct-2026': load(400, 4, 600), 'gateway-2026': load(150, 12, 2500) },
      'q1-c16': {
        'direct-2026': load(800, 20, 600),
        'gateway-2026': load(modernThrough, 60, 2400),
        'direct-2025': load(900, 18, 500),
        'gateway-2025': load(200, 90, 2600),
      },
    },
    parked: {
      gateway: cost(parkedKb, 900, 50),
      upstream: cost(30, 900, 50),
      pendingQuestion: cost(16, 1000, 0),
    },
  };
}

const measured = (gateway?: GatewayResults) => measuredResults(gateway && { gateway });

describe("the gateway's goals, (h)", () => {
  it('are not measured, never met, when (h) did not run', () => {
    const results = measured();
    expect(goal(results, 'The gateway ≥ 0.7× direct')).toMatchObject({ met: undefined });
    expect(goal(results, 'Heap per parked call')).toMatchObject({ met: undefined });
  });

  it('read the gateway’s 2026-07-28 flows against the same upstream directly, at c16', () => {
    expect(goal(measured(gateway(600, 20)), 'The gateway ≥ 0.7× direct')).toMatchObject({
      target: '≥ 0.70×',
      measured: '0.75× (600 vs 800 flows/s)',
      met: true,
      note: "the gateway's CPU per round 2400 µs, the upstream's alone 600 µs",
    });
    expect(goal(measured(gateway(200, 20)), 'The gateway ≥ 0.7× direct')).toMatchObject({
      measured: '0.25× (200 vs 800 flows/s)',
      met: false,
      note: "the gateway's CPU per round 2400 µs, the upstream's alone 600 µs; 2.8× too slow",
    });
  });

  it('read a parked call against a pending 2025-era question of the same run', () => {
    expect(goal(measured(gateway(600, 30)), 'Heap per parked call')).toMatchObject({
      target: '≤ 2.00×',
      measured: '30.0 KB (900 parked), 1.88× the 16.0 KB of a pending question',
      met: true,
      note: 'the upstream holds 30.0 KB for each of the same calls',
    });
    expect(goal(measured(gateway(600, 120)), 'Heap per parked call')).toMatchObject({
      measured: '120.0 KB (900 parked), 7.50× the 16.0 KB of a pending question',
      met: false,
    });
  });
});

describe("the gateway's tables, (h)", () => {
  it('show each pairing direct and through the gateway, and a parked call against a pending question', () => {
    const partial = measured(gateway(400, 120));
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain('### (h) The gateway against the same upstream spoken to directly');
    expect(text).toContain(
      '| 2026-07-28 host > 2026-07-28 upstream | direct: 2026-07-28 rounds | 400 | 1.00 / 4.00 | 800 | 5.00 / 20.00 | 1.00× | 600 |',
    );
    expect(text).toContain(
      '|  | through the gateway: each round relayed | 150 | 3.00 / 12.00 | 400 | 15.00 / 60.00 | 0.50× | 2,400 |',
    );
    expect(text).toContain(
      '| 2026-07-28 host > 2025-11-25 upstream | direct: a 2025 session, the question pushed | — | — | 900 | 4.50 / 18.00 | 1.00× | 500 |',
    );
    expect(text).toContain(
      '|  | through the gateway: the upstream call parked between rounds | — | — | 200 | 22.50 / 90.00 | 0.22× | 2,600 |',
    );
    expect(text).toContain('| the gateway | 900 beyond 50 warm-up | 120.0 | 7.50× |');
    expect(text).toContain('| the upstream (Parley) | 900 beyond 50 warm-up | 30.0 | 1.88× |');
    expect(text).toContain('| Parley | 1,000 beyond 0 pending (a warm-up answered first) | 16.0 | 1.00× |');
    expect(text).toContain('| goal | the gateway |  | 32.0 | ≤ 2.00× |');
    expect(text).toContain(
      '| The gateway ≥ 0.7× direct flows/s, 2026-07-28 host > 2026-07-28 upstream, (h) c16 |',
    );
    expect(text).not.toContain('Profiles of the gateway');
  });

  it('shows the SDK client alone under a parked call, with and without its GET stream, and names it in the goal', () => {
    const floor = (session: number, call: number) => ({
      session: cost(session, 900, 50),
      sessionWithCall: cost(call, 900, 50),
    });
    const results = gateway(400, 120);
    const partial = measured({
      ...results,
      parked: { ...results.parked, clientFloor: floor(58, 118), clientFloorNoGet: floor(10, 70) },
    });
    const text = renderMarkdown({ ...partial, goals: checkGoals(partial) });
    expect(text).toContain(
      '| the SDK client alone, connected as the gateway connects it: an idle 2025 session | the SDK client | 900 beyond 50 warm-up | 58.0 | 3.63× |',
    );
    expect(text).toContain(
      '| the same: a session with one call waiting on its question | the SDK client | 900 beyond 50 warm-up | 118.0 | 7.38× |',
    );
    expect(text).toContain(
      '| the same: a session with one call waiting on its question, without the standalone GET stream | the SDK client | 900 beyond 50 warm-up | 70.0 | 4.38× |',
    );
    expect(goal(partial, 'Heap per parked call').note).toBe(
      'the upstream holds 30.0 KB for each of the same calls; the SDK client alone holds 118.0 KB for a session with a call waiting (70.0 KB without its standalone GET stream)',
    );
  });
});
