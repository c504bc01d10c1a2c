import { describe, expect, it } from 'vitest';
import {
  formatGatewayReport,
  type GatewayReport,
  gatewayProblems,
  type PartReport,
} from './gateway-report.js';
import type { TripResult } from './trip-flow.js';

const VICTIM = '127.0.0.1:2';
const GONE =
  'The gateway replica gw2 that held this call is gone (it stopped, or lost its connection to the fleet), and the upstream call with it; call again to start over.';

const flow = (id: number, fields: Partial<TripResult> = {}): TripResult => ({
  id,
  marker: `f${id}`,
  status: 'completed',
  resent: 0,
  holder: '127.0.0.1:1',
  heldAt: 1_000,
  endedAt: 3_000,
  ...fields,
});

function part(results: TripResult[], fields: Partial<PartReport> = {}): PartReport {
  return {
    label: 'one at a time',
    sequenced: true,
    flowsAsked: results.length,
    active: 2,
    results,
    rounds: { begun: results.length, answered: 3, passedOn: 3, onHolder: new Map() },
    line: { resent: 0, gaveUp: 0, lostReplies: 0 },
    kill: {
      victim: 'gw2',
      address: VICTIM,
      heldAtKill: 1,
      killedAt: 2_000,
      restartedAt: 2_500,
      midRequest: false,
    },
    durationMs: 1,
    ...fields,
  };
}

function report(...parts: PartReport[]): GatewayReport {
  return {
    durationMs: 1,
    seed: 1,
    upstreamLine: 'trips: 2025-11-25',
    replicas: [
      { name: 'gw1', address: '127.0.0.1:1', starts: 1 },
      { name: 'gw2', address: VICTIM, starts: 2 },
    ],
    channel: { sent: 0, served: new Map(), predicted: 0, missed: 0 },
    parts,
    windows: [],
    timeline: [],
    logDir: '/tmp',
  };
}

describe('the gateway run report', () => {
  it('passes when only the flows whose calls died with the killed replica failed, each told so by name', () => {
    const held = flow(2, {
      holder: VICTIM,
      status: 'failed',
      reason: GONE,
      at: { step: 'question 2 (day)', replica: VICTIM },
    });
    const done = report(part([flow(1), held]));
    expect(gatewayProblems(done)).toEqual([]);
    expect(formatGatewayReport(done)).toContain(`flow 2 (f2) failed at question 2 (day) on gw2: ${GONE}`);
    expect(formatGatewayReport(done)).toContain(
      'RESULT: 2 flows; completed 1, failed 1 (named 1), wrong 0, lost 0: PASS',
    );
  });

  it('fails a flow that failed though its call was elsewhere, or died with the replica untold', () => {
    const problems = gatewayProblems(
      report(
        part([
          flow(1, { status: 'failed', reason: GONE }),
          flow(2, { holder: VICTIM, status: 'failed', reason: 'fetch failed' }),
          flow(3, { holder: VICTIM }),
        ]),
      ),
    );
    expect(problems).toEqual([
      `one at a time: flow 1 failed though the killed replica did not hold its call: ${GONE}`,
      'one at a time: flow 2 lost its call with gw2 but was not told so: fetch failed',
    ]);
  });

  it('counts as held by the killed replica only calls its dying process held, of flows not ended before', () => {
    const problems = gatewayProblems(
      report(
        part([
          // Begun on the replica after it was started again, and ended before the kill: neither held.
          flow(1, { holder: VICTIM, heldAt: 2_600, status: 'failed', reason: GONE }),
          flow(2, { holder: VICTIM, endedAt: 1_500 }),
        ]),
      ),
    );
    expect(problems).toContain('one at a time: no flow held a call on gw2 when it was killed');
    expect(problems).toContain(
      `one at a time: flow 1 failed though the killed replica did not hold its call: ${GONE}`,
    );
  });

  it('fails wrong and lost flows, too few flows, and answers served by their holder outside a fault window', () => {
    const problems = gatewayProblems(
      report(
        part(
          [
            flow(1, { status: 'wrong', reason: 'asked for another flow' }),
            flow(2, { status: 'lost', reason: 'still in progress' }),
            flow(3, { holder: VICTIM, status: 'failed', reason: GONE }),
          ],
          {
            flowsAsked: 5,
            rounds: {
              begun: 3,
              answered: 3,
              passedOn: 0,
              onHolder: new Map([['outside any fault window', 3]]),
            },
          },
        ),
      ),
    );
    expect(problems).toEqual([
      'one at a time: only 3 flows ran of 5',
      'one at a time: wrong = 1: a flow was asked or given data that was not its own',
      'one at a time: lost = 1: flows never ended',
      'one at a time: no answer reached its held call through another replica',
      'one at a time: 3 answers were served by the replica holding their call, outside any fault window',
    ]);
  });
});
