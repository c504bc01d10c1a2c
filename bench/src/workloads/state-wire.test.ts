import { describe, expect, it } from 'vitest';
import { answerBytesSeries } from './state-wire.js';

describe('answerBytesSeries', () => {
  it('adds up the answers already given, as the JSON content objects the client sent', () => {
    // {"answer":"answer 1"} is 21 bytes; the state of round k carries the k answers before it.
    expect(answerBytesSeries(3)).toEqual([0, 21, 42]);
    expect(answerBytesSeries(1)).toEqual([0]);
  });
});
