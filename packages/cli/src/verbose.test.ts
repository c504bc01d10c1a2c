import { describe, expect, it } from 'vitest';
import { describeEvent } from './verbose.js';

const base = { callId: 2, round: 3, at: 0 };

describe('describeEvent', () => {
  it('gives one line per step, without answers', () => {
    expect([
      describeEvent({
        ...base,
        type: 'request',
        method: 'tools/call',
        name: 'book',
        call: { kind: 'tool', name: 'book', arguments: { n: 1 } },
        era: 'modern',
      }),
      describeEvent({ ...base, type: 'input-required', keys: ['a', 'b'], stateBytes: 40, ms: 5 }),
      describeEvent({ ...base, type: 'input-required', keys: [], stateBytes: null, ms: 5 }),
      describeEvent({ ...base, type: 'elicitation', key: 'a', mode: 'url' }),
      describeEvent({ ...base, type: 'skipped', key: 'a', reason: 'outside the subset', answered: 'cancel' }),
      describeEvent({
        ...base,
        type: 'answers',
        answers: [{ key: 'a', method: 'elicitation/create', action: 'decline' }],
      }),
      describeEvent({ ...base, type: 'url-complete', elicitationId: 'e1' }),
      describeEvent({ ...base, type: 'result', isError: true, ms: 9 }),
      describeEvent({ ...base, type: 'error', message: 'boom', ms: 9 }),
    ]).toEqual([
      '[call 2 · round 3] → tools/call "book" {"n":1} (modern)',
      '[call 2 · round 3] ← input_required: a, b; state 40 bytes; 5 ms',
      '[call 2 · round 3] ← input_required: (no questions); no state; 5 ms',
      '[call 2 · round 3] ← elicitation/create (url) "a"',
      '[call 2 · round 3] not shown "a" (answered cancel): outside the subset',
      '[call 2 · round 3] answered: a=decline',
      '[call 2 · round 3] the server says the page flow e1 finished',
      '[call 2 · round 3] ← result (isError); call took 9 ms',
      '[call 2 · round 3] ✖ boom',
    ]);
  });
});
