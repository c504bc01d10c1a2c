import { describe, expect, it } from 'vitest';
import { RoundRobinPredictor } from './round-robin.js';

describe('RoundRobinPredictor', () => {
  it('assumes configuration order until it has seen something', () => {
    const predictor = new RoundRobinPredictor(['a', 'b', 'c']);
    expect(predictor.next()).toBe('a');
    predictor.saw('a');
    expect(predictor.next()).toBe('b');
    predictor.saw('b');
    expect(predictor.next()).toBe('c');
  });

  it("follows the balancer's own order once it has seen it, and counts what it got wrong", () => {
    const predictor = new RoundRobinPredictor(['a', 'b', 'c']);
    for (const replica of ['a', 'c', 'b', 'a', 'c', 'b']) predictor.saw(replica);
    // One wrong guess per transition it had not seen (a->c, c->b, b->a), then a, c, b, a, ... exactly.
    expect(predictor.next()).toBe('a');
    predictor.saw('a');
    expect(predictor.next()).toBe('c');
    expect(predictor.accuracy).toEqual({ predicted: 7, missed: 3 });
  });

  it('relearns when a replica drops out and comes back', () => {
    const predictor = new RoundRobinPredictor(['a', 'b', 'c']);
    for (const replica of ['a', 'b', 'c', 'a', 'b']) predictor.saw(replica);
    predictor.saw('a'); // c is down: b is followed by a now
    expect(predictor.next()).toBe('b');
    predictor.saw('b');
    expect(predictor.next()).toBe('a');
    predictor.saw('c'); // c is back
    expect(predictor.next()).toBe('a');
  });

  it('ignores requests no replica answered', () => {
    const predictor = new RoundRobinPredictor(['a', 'b']);
    predictor.saw(undefined);
    expect(predictor.accuracy).toEqual({ predicted: 0, missed: 0 });
    expect(() => new RoundRobinPredictor(['a'])).toThrow(/at least two/);
  });
});
