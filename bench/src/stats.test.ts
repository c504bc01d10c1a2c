import { describe, expect, it } from 'vitest';
import { median, quartiles } from './stats.js';

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

describe('quartiles', () => {
  it('takes the medians of the lower and the upper half, whatever the order', () => {
    expect(quartiles([9, 1, 5, 3, 7])).toEqual([2, 8]);
    expect(quartiles([4, 1, 3, 2])).toEqual([1.5, 3.5]);
    expect(quartiles([6])).toEqual([6, 6]);
  });

  it('refuses an empty list with the fix', () => {
    expect(() => quartiles([])).toThrow(/measure at least one run/);
  });
});
