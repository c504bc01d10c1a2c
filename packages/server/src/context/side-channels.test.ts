import { describe, expect, it } from 'vitest';
import { NotificationSequence } from './side-channels.js';

/** Which of `count` notifications a run sends, and what it hands on to the next run. */
function run(sequence: NotificationSequence, count: number) {
  const sent = Array.from({ length: count }, (_, position) => [position, sequence.next()] as const)
    .filter(([, send]) => send)
    .map(([position]) => position);
  return { sent, reached: sequence.reached };
}

describe('NotificationSequence', () => {
  it('sends only the positions no earlier run reached, and carries the furthest position on', () => {
    expect(run(new NotificationSequence(), 2)).toEqual({ sent: [0, 1], reached: 2 });
    expect(run(new NotificationSequence(2), 4)).toEqual({ sent: [2, 3], reached: 4 });
    // A run that ends sooner (a guard earlier than before) does not lower what was sent.
    expect(run(new NotificationSequence(4), 3)).toEqual({ sent: [], reached: 4 });
  });

  it('does not count what a run sends after it stopped at a question (a finally unwinding)', () => {
    const sequence = new NotificationSequence(1);
    expect(sequence.next()).toBe(false);
    expect(sequence.next()).toBe(true);
    sequence.stop();
    expect(sequence.next()).toBe(true);
    sequence.stop();
    expect(sequence.reached).toBe(2);
  });

  it('sends nothing, and throws nothing, under an absurd count', () => {
    const sequence = new NotificationSequence(Number.MAX_SAFE_INTEGER);
    expect(run(sequence, 1000)).toEqual({ sent: [], reached: Number.MAX_SAFE_INTEGER });
  });
});
