import { describe, expect, it } from 'vitest';
import { ReplayBudget } from './replay-budget.js';

describe('ReplayBudget', () => {
  it('lets a few replays run at once and refuses the next until one is done', () => {
    const budget = new ReplayBudget({ maxInFlight: 2, maxBytes: 1000, windowMs: 60_000 }, () => 0);
    expect(budget.take(10)).toBeUndefined();
    expect(budget.take(10)).toBeUndefined();
    expect(budget.take(10)).toBe('busy');
    budget.release();
    expect(budget.take(10)).toBeUndefined();
  });

  it('refuses replays past its bytes in the window, and allows them again once the window moved on', () => {
    const clock = { t: 0 };
    const budget = new ReplayBudget({ maxInFlight: 10, maxBytes: 1000, windowMs: 60_000 }, () => clock.t);
    expect(budget.take(600)).toBeUndefined();
    budget.release();
    expect(budget.take(600)).toBe('spent');
    expect(budget.take(400)).toBeUndefined();
    budget.release();
    clock.t = 60_000;
    expect(budget.take(900)).toBeUndefined();
  });

  it('lets one replay larger than the whole budget through when nothing was replayed lately', () => {
    const budget = new ReplayBudget({ maxInFlight: 10, maxBytes: 1000, windowMs: 60_000 }, () => 0);
    expect(budget.take(5000)).toBeUndefined();
    budget.release();
    expect(budget.take(1)).toBe('spent');
  });
});
