import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAITING_MESSAGE, WaitingCall, WaitingReminders, waitingCallOf } from './waiting-progress.js';

interface Sent {
  readonly method: string;
  readonly params: { progressToken: unknown; progress: number; total?: number; message?: string };
}

/** A request's `mcpReq` that records what is sent on it. */
function request(token: string | number | null = 'tok') {
  const sent: Sent[] = [];
  return {
    sent,
    mcpReq: {
      _meta: token === null ? undefined : { progressToken: token },
      notify: async (notification: unknown) => {
        sent.push(notification as Sent);
      },
    },
  };
}

describe('progress reminders while a question waits', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reminds a waiting call within a quarter period, then once per period, each progress larger than the last', () => {
    const wheel = new WaitingReminders(20_000);
    const req = request();
    const call = waitingCallOf(wheel, req as never)!;
    vi.advanceTimersByTime(3_000);
    call.began();
    // The first reminder comes before a client with a 10 s timeout would give up.
    vi.advanceTimersByTime(5_000);
    expect(req.sent).toHaveLength(1);
    vi.advanceTimersByTime(40_000);
    expect(req.sent).toHaveLength(3);
    expect(req.sent.map((n) => n.method)).toEqual(Array(3).fill('notifications/progress'));
    expect(req.sent.map((n) => n.params)).toEqual([
      { progressToken: 'tok', progress: 0.001, message: WAITING_MESSAGE },
      { progressToken: 'tok', progress: 0.002, message: WAITING_MESSAGE },
      { progressToken: 'tok', progress: 0.003, message: WAITING_MESSAGE },
    ]);
  });

  it('says when the question moves to a page, where the call’s host gives up on it (its profile)', () => {
    const wheel = new WaitingReminders(10_000);
    const req = request();
    const call = waitingCallOf(wheel, req as never)!;
    call.began(Date.now() + 50_000);
    vi.advanceTimersByTime(10_000);
    call.ended();
    call.began();
    vi.advanceTimersByTime(10_000);
    expect(req.sent.map((n) => n.params.message)).toEqual([
      // The first reminder comes within a quarter period (about 2 s in), so the page is 48 s away.
      `${WAITING_MESSAGE} (in 48 s it moves to a page of the server, before this host gives up on it)`,
      WAITING_MESSAGE,
    ]);
  });

  it('sends the first within a quarter period and never leaves a gap longer than the period, whenever the call began waiting', () => {
    const wheel = new WaitingReminders(20_000);
    // Another call keeps the wheel turning, so the calls below begin at every phase of its turn.
    waitingCallOf(wheel, request() as never)!.began();
    for (const offset of [0, 1, 4_999, 5_000, 14_999, 19_999]) {
      const req = request();
      vi.advanceTimersByTime(offset);
      const call = waitingCallOf(wheel, req as never)!;
      call.began();
      const at: number[] = [];
      const began = Date.now();
      for (let ms = 0; ms < 100_000; ms += 250) {
        const before = req.sent.length;
        vi.advanceTimersByTime(250);
        if (req.sent.length > before) at.push(Date.now() - began);
      }
      call.ended();
      expect(at[0], `began at ${offset}`).toBeLessThanOrEqual(5_000);
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      expect(gaps, `began at ${offset}`).toEqual(Array(gaps.length).fill(20_000));
    }
  });

  it('goes on from the progress the handler reported, keeping its total', () => {
    const wheel = new WaitingReminders(1_000);
    const req = request(7);
    const call = waitingCallOf(wheel, req as never)!;
    call.reported(50, 100);
    call.began();
    vi.advanceTimersByTime(2_000);
    call.ended();
    call.reported(51, 100);
    call.began();
    vi.advanceTimersByTime(1_000);
    expect(req.sent.map((n) => [n.params.progress, n.params.total])).toEqual([
      [50.001, 100],
      [50.002, 100],
      [51.001, 100],
    ]);
    // A handler's progress that is not larger than what was sent does not pull the reminders back.
    call.reported(3, 10);
    vi.advanceTimersByTime(1_000);
    expect(req.sent.at(-1)!.params).toMatchObject({ progress: 51.002, total: 100 });
  });

  it('reminds a call with several questions waiting once, and stops when the last one ends', () => {
    const wheel = new WaitingReminders(1_000);
    const req = request();
    const call = waitingCallOf(wheel, req as never)!;
    call.began();
    call.began();
    expect(wheel.size).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(req.sent).toHaveLength(1);
    call.ended();
    vi.advanceTimersByTime(1_000);
    expect(req.sent).toHaveLength(2);
    call.ended();
    expect(wheel.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(req.sent).toHaveLength(2);
  });

  it('turns one timer for every waiting call, and none while nothing waits', () => {
    const wheel = new WaitingReminders(1_000);
    expect(vi.getTimerCount()).toBe(0);
    const calls = Array.from({ length: 1000 }, () => {
      const req = request();
      return { req, call: waitingCallOf(wheel, req as never)! };
    });
    for (const { call } of calls) call.began();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(calls.every(({ req }) => req.sent.length === 1)).toBe(true);
    for (const { call } of calls) call.ended();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends nothing for a request without a progressToken, nor when reminders are off', () => {
    expect(waitingCallOf(new WaitingReminders(1_000), request(null) as never)).toBeUndefined();
    expect(waitingCallOf(undefined, request() as never)).toBeUndefined();
  });

  it('loses a reminder whose stream is gone, and nothing else', async () => {
    const wheel = new WaitingReminders(1_000);
    const failing = {
      mcpReq: { _meta: { progressToken: 1 }, notify: () => Promise.reject(new Error('stream gone')) },
    };
    const call = new WaitingCall(wheel, failing as never, 1);
    call.began();
    vi.advanceTimersByTime(3_000);
    await vi.runOnlyPendingTimersAsync();
    call.ended();
    expect(wheel.size).toBe(0);
  });

  it('refuses a period that is not a positive number', () => {
    expect(() => new WaitingReminders(-1)).toThrow(/waitingProgressMs must be a positive number/);
    expect(() => new WaitingReminders(Number.NaN)).toThrow(/0 for none/);
  });
});
