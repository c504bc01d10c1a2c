import { describe, expect, it, vi } from 'vitest';
import type { LiveListeners } from '../leg/host-facts.js';
import type { Step } from '../leg/step.js';
import { LiveCall } from './live-call.js';
import { type LiveCallRouter, LiveCalls, ParkedCallError, type Resume } from './live-calls.js';

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

  it('gives a copy of the latest request the same step, also once the call finished', async () => {
    const calls = new LiveCalls(limits);
    const { live } = askingCall();
    const handle = calls.park(live, 'alice', 'desk');
    const begin = { handle, owner: 'alice', round: 0, answers: undefined, holdMs: 1_000 };
    // Two copies at once (the first one's response was lost on its way): the second waits for the first's step.
    const [first, copy] = await Promise.all([calls.resume(begin, {}), calls.resume(begin, {})]);
    expect(copy).toEqual(first);
    expect(first).toMatchObject({ kind: 'ask', via: { round: 1 } });

    const answers = { q1: { result: { action: 'accept', content: { boxes: 2 } } } };
    const answered = { handle, owner: 'alice', round: 1, answers, holdMs: 1_000 };
    const done = await calls.resume(answered, {});
    expect(done).toMatchObject({ kind: 'result' });
    expect(calls.size).toBe(0);
    // The same answers again (keys in another order count as the same) get the same result...
    expect(
      await calls.resume(
        { ...answered, answers: { q1: { result: { content: { boxes: 2 }, action: 'accept' } } } },
        {},
      ),
    ).toEqual(done);
    // ...other answers, or another user, do not.
    await expect(
      calls.resume({ ...answered, answers: { q1: { result: { action: 'decline' } } } }, {}),
    ).rejects.toThrow(/is gone/);
    await expect(calls.resume({ ...answered, owner: 'mallory' }, {})).rejects.toThrow(/is gone/);
    await calls.close();
  });

  it('refuses other answers to a round being answered, and asks again after a wait', async () => {
    const calls = new LiveCalls(limits);
    let ask!: () => void;
    const live = new LiveCall(
      () =>
        new Promise(() => {
          ask = () => void live.incoming({ method: 'elicitation/create', params: { message: 'Later?' } });
        }),
      '2025-11-25',
    );
    const handle = calls.park(live, undefined, 'desk');
    const comeBack = { handle, owner: undefined, round: 0, answers: undefined, holdMs: 20 };
    expect(await calls.resume(comeBack, {})).toMatchObject({ kind: 'wait' });
    // The same come-back after a wait asks the call again (nothing was handed out).
    const pending = calls.resume({ ...comeBack, holdMs: 5_000 }, {});
    await expect(
      calls.resume({ ...comeBack, answers: { q1: { result: { action: 'cancel' } } } }, {}),
    ).rejects.toThrow('This round is being answered by another request already; wait for it.');
    ask();
    expect(await pending).toMatchObject({ kind: 'ask', requests: { q1: { params: { message: 'Later?' } } } });
    await calls.close();
  });
});

describe('LiveCalls on a fleet', () => {
  /** A router that records what it is asked, and lets the test play the other replicas. */
  function fakeRouter() {
    const cancels: unknown[][] = [];
    const forwarded: { replica: string; resume: Resume; listeners: LiveListeners | undefined }[] = [];
    let serve!: (request: Resume, listeners: LiveListeners) => Promise<Step>;
    let drop!: (handle: string, owner: string | undefined) => void;
    const router: LiveCallRouter = {
      replica: 'gw1-1',
      async forward(replica, resume, listeners) {
        forwarded.push({ replica, resume, listeners });
        return {
          kind: 'wait',
          via: { kind: 'live', handle: resume.handle, round: 1, revision: '2025-11-25' },
        };
      },
      serve(resume, dropped) {
        serve = resume;
        drop = dropped!;
      },
      cancel: (...args) => void cancels.push(args),
      close: async () => {},
    };
    return { router, cancels, forwarded, serve: () => serve, drop: () => drop };
  }

  it("passes the host's listeners along with a resume for another replica, and its cancel there", async () => {
    const fleet = fakeRouter();
    const calls = new LiveCalls(limits, fleet.router);
    const listeners: LiveListeners = { progress: () => {} };
    const handle = `gw2-2.${'h'.repeat(43)}`;
    await calls.resume({ handle, owner: 'alice', round: 1, answers: undefined, holdMs: 10 }, listeners);
    expect(fleet.forwarded).toEqual([{ replica: 'gw2-2', resume: expect.any(Object), listeners }]);
    calls.drop(handle, 'the host cancelled the call', 'alice');
    expect(fleet.cancels).toEqual([['gw2-2', handle, 'alice']]);
    await calls.close();
  });

  it('lets the progress of a call resumed from another replica reach the listeners that replica gave', async () => {
    const fleet = fakeRouter();
    const calls = new LiveCalls(limits, fleet.router);
    let report!: () => void;
    const live = new LiveCall(
      () =>
        new Promise((resolve) => {
          report = () => {
            live.progress({ progress: 1, total: 2 });
            live.log({ level: 'info', data: 'half way' });
            resolve({ content: [] });
          };
        }),
      '2025-11-25',
    );
    const handle = calls.park(live, 'alice', 'desk');
    const heard: unknown[] = [];
    const step = fleet.serve()(
      { handle, owner: 'alice', round: 0, answers: undefined, holdMs: 5_000 },
      { progress: (params) => heard.push(params), log: (params) => heard.push(params) },
    );
    report();
    expect(await step).toEqual({ kind: 'result', result: { content: [] } });
    expect(heard).toEqual([
      { progress: 1, total: 2 },
      { level: 'info', data: 'half way' },
    ]);
    await calls.close();
  });

  it("drops a held call on another replica's cancel for its owner, and only for its owner", async () => {
    const fleet = fakeRouter();
    const calls = new LiveCalls(limits, fleet.router);
    const { live, cancelled } = askingCall();
    const handle = calls.park(live, 'alice', 'desk');
    fleet.drop()(handle, 'mallory');
    fleet.drop()(handle, undefined);
    calls.drop(handle, 'the host cancelled the call', 'mallory');
    expect(calls.size).toBe(1);
    expect(cancelled()).toBeUndefined();
    fleet.drop()(handle, 'alice');
    expect(calls.size).toBe(0);
    expect(String(cancelled())).toContain('the host cancelled the call (on another gateway replica)');
    await calls.close();
  });
});

describe('LiveCall', () => {
  it('ends with the upstream’s failure, not an empty round, when the call fails while its questions gather', async () => {
    let live!: LiveCall;
    live = new LiveCall(
      () =>
        new Promise((_, reject) => {
          queueMicrotask(() => {
            void live.incoming({ method: 'elicitation/create', params: { message: 'Boxes?' } });
            reject(new Error('the upstream gave up'));
          });
        }),
      '2025-11-25',
    );
    await expect(live.next('handle', 1_000)).rejects.toThrow('the upstream gave up');
  });
});

describe('LiveCall gathering a round', () => {
  const ask = (live: LiveCall, message: string) => {
    void live.incoming({ method: 'elicitation/create', params: { message } });
  };
  const messagesOf = (step: Step) =>
    step.kind === 'ask' ? Object.values(step.requests).map((request) => request.params?.message) : [];

  it('asks questions that come back to back in one round, without waiting the longest gathering', async () => {
    vi.useFakeTimers();
    try {
      let live!: LiveCall;
      live = new LiveCall(async () => {
        await null; // the constructor starts the call before `live` is set
        ask(live, 'Name?');
        await new Promise((resolve) => setTimeout(resolve, 1));
        ask(live, 'Colour?');
        return new Promise(() => {});
      }, '2025-11-25');
      let step: Step | undefined;
      void live.next('handle', 1_000).then((next) => {
        step = next;
      });
      // Quiet 2 ms after the second question: handed out then, not after the 15 ms a round gathers at most.
      await vi.advanceTimersByTimeAsync(5);
      expect(step && messagesOf(step)).toEqual(['Name?', 'Colour?']);
      live.cancel('done');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves a question that comes after a quiet moment to the next round', async () => {
    let live!: LiveCall;
    live = new LiveCall(async () => {
      await null; // the constructor starts the call before `live` is set
      ask(live, 'Name?');
      await new Promise((resolve) => setTimeout(resolve, 40));
      ask(live, 'Colour?');
      return new Promise(() => {});
    }, '2025-11-25');
    expect(messagesOf(await live.next('handle', 1_000))).toEqual(['Name?']);
    live.answer(1, {});
    expect(messagesOf(await live.next('handle', 1_000))).toEqual(['Colour?']);
    live.cancel('done');
  });

  it('hands a round out after the longest gathering even while questions keep coming', async () => {
    let live!: LiveCall;
    let stop = false;
    live = new LiveCall(async () => {
      await null; // the constructor starts the call before `live` is set
      for (let i = 0; !stop && i < 40; i++) {
        ask(live, `Q${i}?`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return new Promise(() => {});
    }, '2025-11-25');
    const step = await live.next('handle', 1_000);
    stop = true;
    const count = messagesOf(step).length;
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThan(40);
    live.cancel('done');
  });
});
