import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WireTimer } from './wire-timer.js';

// A fake clock: what is tested is which time counts, not how punctual the machine's timers are.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WireTimer', () => {
  it('expires after its time when never paused', () => {
    let expired = false;
    new WireTimer(
      30,
      () => {
        expired = true;
      },
      false,
    );
    vi.advanceTimersByTime(29);
    expect(expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(expired).toBe(true);
  });

  it('does not count paused time', () => {
    let expired = false;
    const timer = new WireTimer(
      80,
      () => {
        expired = true;
      },
      false,
    );
    vi.advanceTimersByTime(40);
    timer.pause();
    vi.advanceTimersByTime(120);
    expect(expired).toBe(false);
    timer.resume();
    vi.advanceTimersByTime(39);
    expect(expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(expired).toBe(true);
  });

  it('starts paused when asked to, and never fires once stopped', () => {
    let fired = 0;
    const paused = new WireTimer(20, () => fired++, true);
    vi.advanceTimersByTime(50);
    expect(fired).toBe(0);
    paused.resume();
    paused.stop();
    vi.advanceTimersByTime(50);
    expect(fired).toBe(0);
  });
});
