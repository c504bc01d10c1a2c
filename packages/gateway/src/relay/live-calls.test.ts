import { describe, expect, it } from 'vitest';
import { LiveCall } from '../upstream/live-call.js';
import { LiveCalls, ParkedCallError } from './live-calls.js';

/** A held call whose upstream asks one question, then answers with what it was told. */
function askingCall(): { live: LiveCall; cancelled: () => unknown } {
  let reason: unknown;
  let live!: LiveCall;
  live = new LiveCall(
    (signal) =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => {
          reason = signal.reason;
          reject(signal.reason);
        });
        // Asked once the call exists (the constructor starts it).
        queueMicrotask(
          () =>
            void live
              .incoming({
                method: 'elicitation/create',
                params: { message: 'Boxes?', requestedSchema: { type: 'object', properties: {} } },
              })
              .then((answer) => resolve({ content: [{ type: 'text', text: JSON.stringify(answer) }] })),
        );
      }),
    '2025-06-18',
  );
  return { live, cancelled: () => reason };
}

const limits = { ttlMs: 60_000, perUser: 2, anonymous: 3 };

describe('LiveCalls', () => {
  it('resumes a held call for its owner only, each round once', async () => {
    const calls = new LiveCalls(limits);
    const { live } = askingCall();
    const handle = calls.park(live, 'alice', 'desk');
    const first = await calls.resume(
      { handle, owner: 'alice', round: 0, answers: undefined, holdMs: 1_000 },
      {},
    );
    expect(first).toMatchObject({
      kind: 'ask',
      via: { kind: 'live', handle, round: 1, revision: '2025-06-18' },
    });
    await expect(
      calls.resume({ handle, owner: 'mallory', round: 1, answers: {}, holdMs: 1_000 }, {}),
    ).rejects.toThrow('This call belongs to another user; call again to start your own.');
    await expect(
      calls.resume({ handle, owner: undefined, round: 1, answers: {}, holdMs: 1_000 }, {}),
    ).rejects.toBeInstanceOf(ParkedCallError);
    const done = await calls.resume(
      { handle, owner: 'alice', round: 1, answers: { q1: { result: { action: 'decline' } } }, holdMs: 1_000 },
      {},
    );
    expect(done).toEqual({
      kind: 'result',
      result: { content: [{ type: 'text', text: '{"result":{"action":"decline"}}' }] },
    });
    await expect(
      calls.resume({ handle, owner: 'alice', round: 1, answers: {}, holdMs: 1_000 }, {}),
    ).rejects.toThrow(/is gone/);
    expect(calls.size).toBe(0);
    await calls.close();
  });

  it('refuses a handle nobody issued, and answers wait when the upstream has nothing new', async () => {
    const calls = new LiveCalls(limits);
    await expect(
      calls.resume({ handle: 'local.forged', owner: undefined, round: 1, answers: {}, holdMs: 10 }, {}),
    ).rejects.toThrow(/is gone/);
    const live = new LiveCall(() => new Promise(() => {}), '2025-11-25');
    const handle = calls.park(live, undefined, 'desk');
    expect(
      await calls.resume({ handle, owner: undefined, round: 0, answers: undefined, holdMs: 30 }, {}),
    ).toEqual({
      kind: 'wait',
      via: { kind: 'live', handle, round: 0, revision: '2025-11-25' },
    });
    await calls.close();
  });

  it('holds at most so many calls per user and for anonymous hosts', async () => {
    const calls = new LiveCalls(limits);
    calls.park(askingCall().live, 'alice', 'desk');
    calls.park(askingCall().live, 'alice', 'desk');
    const third = askingCall();
    expect(() => calls.park(third.live, 'alice', 'desk')).toThrow(
      /Too many calls are waiting on questions \(2 for you\)/,
    );
    expect(String(third.cancelled())).toContain('too many calls waiting on questions');
    calls.park(askingCall().live, 'bob', 'desk');
    await calls.close();
  });

  it('cancels a held call upstream when its host does not come back in time', async () => {
    const calls = new LiveCalls({ ...limits, ttlMs: 40 });
    const { live, cancelled } = askingCall();
    calls.park(live, 'alice', 'desk');
    await expect.poll(() => String(cancelled()), { timeout: 5_000 }).toContain('did not come back within');
    expect(calls.size).toBe(0);
    await calls.close();
  });
});
