import { describe, expect, it } from 'vitest';
import { median } from './stats.js';

describe('median', () => {
  it('takes the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });

  it('refuses an empty list with the fix', () => {
    expect(() => median([])).toThrow(/measure at least one run/);
  });
});
