import { describe, expect, it } from 'vitest';
import type { EraResult } from './era-result.js';
import { formatMixed, type MixedReport } from './mixed-report.js';

const flow = { bookingsIn: () => [] };
const result = (fields: Partial<EraResult> & Pick<EraResult, 'era' | 'id' | 'status'>): EraResult => ({
  kind: 'form',
  user: 'alice',
  retries: 0,
  recovered: false,
  flow,
  ...fields,
});

describe('the concurrent run in the report', () => {
  it('names each flow that did not complete: its era, step, replica and error', () => {
    const report: MixedReport = {
      label: 'no affinity',
      perEra: 2,
      active: 2,
      expectAway: true,
      run: {
        durationMs: 1000,
        peakInFlight: 2,
        routing: { sessionRequests: 0, awayFromOwner: 0, awayServed: 0, openedOn: new Map() },
        results: [
          result({ era: '2025', id: 1, status: 'completed' }),
          result({
            era: '2025',
            id: 7,
            status: 'failed',
            reason: 'gave up after 9 failures; last: Request timed out',
            at: {
              step: 'book_return call, after answer 1 of 1 (last request POST answer: HTTP 202)',
              replica: '127.0.0.1:4102',
            },
          }),
          result({
            era: '2026-07-28',
            id: 8,
            kind: 'three-round',
            user: 'bob',
            status: 'failed',
            reason: 'gave up after 9 unclear failures; last: HTTP 502',
            at: { step: 'book_flight round 2', replica: undefined },
          }),
        ],
      },
    };
    const names = new Map([['127.0.0.1:4102', 'r2']]);
    const lines = formatMixed(report, (address) => names.get(address) ?? address);
    expect(lines).toContain(
      '    2025 flow 7 (form, alice) failed at book_return call, after answer 1 of 1 (last request POST answer: HTTP 202) on r2: gave up after 9 failures; last: Request timed out',
    );
    expect(lines).toContain(
      '    2026-07-28 flow 8 (three-round, bob) failed at book_flight round 2 (no replica answered): gave up after 9 unclear failures; last: HTTP 502',
    );
    expect(lines.filter((line) => line.includes(' flow 1 '))).toEqual([]);
  });
});
