import { describe, expect, it } from 'vitest';
import { WireTimer } from './wire-timer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WireTimer', () => {
  it('expires after its time when never paused', async () => {
    let expired = false;
    new WireTimer(
      30,
      () => {
        expired = true;
      },
      false,
    );
    await sleep(60);
    expect(expired).toBe(true);
  });

  it('does not count paused time', async () => {
    let expired = false;
    const timer = new WireTimer(
      80,
      () => {
        expired = true;
      },
      false,
    );
    await sleep(40);
    timer.pause();
    await sleep(120);
    expect(expired).toBe(false);
    timer.resume();
    await sleep(80);
    expect(expired).toBe(true);
  });

  it('starts paused when asked to, and never fires once stopped', async () => {
    let fired = 0;
    const paused = new WireTimer(20, () => fired++, true);
    await sleep(50);
    expect(fired).toBe(0);
    paused.resume();
    paused.stop();
    await sleep(50);
    expect(fired).toBe(0);
  });
});
