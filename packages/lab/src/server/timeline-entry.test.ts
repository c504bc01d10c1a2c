import { describe, expect, it } from 'vitest';
import { timelineEntry } from './timeline-entry.js';

describe('timelineEntry', () => {
  it('keeps the shape of a round and drops the call id and arguments', () => {
    expect(
      timelineEntry({
        type: 'request',
        callId: 3,
        round: 1,
        at: 10,
        method: 'tools/call',
        call: { kind: 'tool', name: 'x', arguments: { card: '4111' } },
        era: 'modern',
      }),
    ).toEqual({ type: 'request', round: 1, at: 10, method: 'tools/call' });
  });

  it('keeps only key, method and action of each answer', () => {
    const entry = timelineEntry({
      type: 'answers',
      callId: 1,
      round: 2,
      at: 5,
      answers: [{ key: 'k', method: 'elicitation/create', action: 'accept', content: { secret: 'x' } }],
    });
    expect(entry.answers).toEqual([{ key: 'k', method: 'elicitation/create', action: 'accept' }]);
    expect(JSON.stringify(entry)).not.toContain('secret');
  });

  it('keeps the state size, never the state', () => {
    const entry = timelineEntry({
      type: 'input-required',
      callId: 1,
      round: 1,
      at: 0,
      keys: ['a'],
      stateBytes: 88,
      ms: 4,
      requestState: 'sealed-bytes',
    });
    expect(entry).toEqual({ type: 'input-required', round: 1, at: 0, keys: ['a'], stateBytes: 88, ms: 4 });
  });
});
