import { describe, expect, it } from 'vitest';
import { SeenMessages } from './seen-messages.js';

describe('the messages a replica acted on', () => {
  it('refuses a copy until its deadline, and forgets it after', () => {
    const seen = new SeenMessages(10);
    expect(seen.admit('m1', 2_000, 1_000)).toBe('fresh');
    expect(seen.admit('m1', 2_000, 1_500)).toBe('copy');
    expect(seen.admit('m1', 9_000, 2_000)).toBe('copy'); // a copy cannot stretch its own deadline
    expect(seen.admit('m2', 3_000, 2_000)).toBe('fresh');
    // Swept once its deadline passed: the deadline itself refuses a copy from then on.
    expect(seen.admit('m3', 5_000, 3_500)).toBe('fresh');
    expect(seen.size).toBe(1);
  });

  it('holds a bounded number of ids, taking more as they expire', () => {
    const seen = new SeenMessages(2);
    expect(seen.admit('a', 2_000, 1_000)).toBe('fresh');
    expect(seen.admit('b', 5_000, 1_000)).toBe('fresh');
    expect(seen.admit('c', 5_000, 1_000)).toBe('full');
    expect(seen.admit('c', 5_000, 2_500)).toBe('fresh');
    expect(seen.admit('d', 5_000, 2_600)).toBe('full');
  });
});
