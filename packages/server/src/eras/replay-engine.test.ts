import { ask, prepareQuestion } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { type AskItem, askPoint } from '../ask/ask-item.js';
import { ReplayDivergenceError, RoundLimitError, TooManyInvalidAnswersError } from '../errors.js';
import { firstRoundState, type RoundState } from '../state/round-state.js';

const EMPTY_STATE = firstRoundState();

import { SUSPEND } from '../context/parley-context.js';
import { MalformedResponseError, ReplayEngine } from './replay-engine.js';

const limits = { maxRounds: 20, maxTries: 3 };
const form = (key: string, message: string, question: Parameters<typeof prepareQuestion>[0]): AskItem => ({
  kind: 'form',
  key,
  message,
  question: prepareQuestion(question),
});
const dest = () => form('dest', 'Where to?', ask.text());
const seats = () => form('seats', 'How many?', ask.integer({ min: 1, max: 3 }));

/** Runs a handler for one round; returns what it returned, or the suspension. */
async function round(
  state: RoundState,
  responses: Record<string, unknown> | undefined,
  handler: (engine: ReplayEngine) => Promise<unknown>,
) {
  const engine = new ReplayEngine(state, responses, limits);
  try {
    const value = await handler(engine);
    return { engine, value, suspension: engine.suspension };
  } catch (error) {
    if (error === SUSPEND) return { engine, value: undefined, suspension: engine.suspension };
    throw error;
  }
}

const trip = async (engine: ReplayEngine) => {
  const [where] = await engine.ask(askPoint([dest()], false));
  const [count] = await engine.ask(askPoint([seats()], false));
  return { where, count };
};

describe('ReplayEngine', () => {
  it('asks, journals, and replays answers in order until the handler completes', async () => {
    const r1 = await round(EMPTY_STATE, undefined, trip);
    expect(Object.keys(r1.suspension!.inputRequests)).toEqual(['dest']);
    const r2 = await round(
      r1.suspension!.state,
      { dest: { action: 'accept', content: { value: 'Paris' } } },
      trip,
    );
    expect(Object.keys(r2.suspension!.inputRequests)).toEqual(['seats']);
    expect(r2.suspension!.state.journal).toHaveLength(1);
    const r3 = await round(
      r2.suspension!.state,
      { seats: { action: 'accept', content: { value: 2 } } },
      trip,
    );
    expect(r3.suspension).toBeUndefined();
    expect(r3.value).toEqual({
      where: { action: 'accept', value: 'Paris' },
      count: { action: 'accept', value: 2 },
    });
  });

  it('uses an answer that arrives before any state, and ignores keys it did not ask', async () => {
    const r = await round(
      EMPTY_STATE,
      { dest: { action: 'accept', content: { value: 'Rome' } }, junk: { x: 1 } },
      async (engine) => {
        const [where] = await engine.ask(askPoint([dest()], false));
        return where;
      },
    );
    expect(r.value).toEqual({ action: 'accept', value: 'Rome' });
  });

  it('asks again, with the reason, when an answer does not fit; stops after the last try', async () => {
    const r1 = await round(EMPTY_STATE, undefined, trip);
    const r2 = await round(
      r1.suspension!.state,
      { dest: { action: 'accept', content: { value: 'Oslo' } } },
      trip,
    );
    const bad = { seats: { action: 'accept', content: { value: 9 } } };
    const r3 = await round(r2.suspension!.state, bad, trip);
    const reasked = r3.suspension!.inputRequests.seats as { params: { message: string } };
    expect(reasked.params.message).toMatch(/^That answer could not be used: .*1.*3.*\n\nHow many\?$/s);
    expect(r3.suspension!.state.pending).toMatchObject({ tries: 1 });
    const r4 = await round(r3.suspension!.state, bad, trip);
    await expect(round(r4.suspension!.state, bad, trip)).rejects.toThrow(TooManyInvalidAnswersError);
  });

  it('replays a form answer exactly, optional fields left out included', async () => {
    const booking = () =>
      form(
        'booking',
        'Book?',
        ask.form({ email: ask.email(), boxes: ask.integer(), note: ask.text({ optional: true }) }),
      );
    const handler = async (engine: ReplayEngine) => {
      const [first] = await engine.ask(askPoint([booking()], false));
      await engine.ask(askPoint([dest()], false));
      return first;
    };
    const r1 = await round(EMPTY_STATE, undefined, handler);
    const content = { email: 'ann@example.com', boxes: 2 };
    const r2 = await round(r1.suspension!.state, { booking: { action: 'accept', content } }, handler);
    expect(r2.suspension!.state.journal[0]![1]).toEqual(['ann@example.com', 2, null]);
    const r3 = await round(
      r2.suspension!.state,
      { dest: { action: 'accept', content: { value: 'Bergen' } } },
      handler,
    );
    expect(r3.value).toEqual({ action: 'accept', value: content });
  });

  it('passes decline and cancel through as themselves', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const r = await round(
        EMPTY_STATE,
        { dest: { action } },
        async (engine) => (await engine.ask(askPoint([dest()], false)))[0],
      );
      expect(r.value).toEqual({ action });
    }
  });

  it('answers -32602 material for replies that are not replies', async () => {
    for (const reply of [{ action: 'maybe' }, { nope: true }]) {
      await expect(round(EMPTY_STATE, { dest: reply }, trip)).rejects.toThrow(MalformedResponseError);
    }
  });

  it('collects a batch across tries, keeping the valid answers and re-asking only the rest', async () => {
    const batch = (engine: ReplayEngine) => engine.ask(askPoint([dest(), seats()], true));
    const r1 = await round(EMPTY_STATE, undefined, batch);
    expect(Object.keys(r1.suspension!.inputRequests)).toEqual(['dest', 'seats']);
    const r2 = await round(
      r1.suspension!.state,
      {
        dest: { action: 'accept', content: { value: 'Lima' } },
        seats: { action: 'accept', content: { value: 0 } },
      },
      batch,
    );
    expect(Object.keys(r2.suspension!.inputRequests)).toEqual(['seats']);
    const r3 = await round(
      r2.suspension!.state,
      { seats: { action: 'accept', content: { value: 3 } } },
      batch,
    );
    expect(r3.value).toEqual([
      { action: 'accept', value: 'Lima' },
      { action: 'accept', value: 3 },
    ]);
  });

  it('runs ctx.once work once per call, replays its value, and gives it a stable idempotency key', async () => {
    let runs = 0;
    const keys: string[] = [];
    const handler = async (engine: ReplayEngine) => {
      const ticket = await engine.once('ticket', (key) => {
        keys.push(key);
        return ++runs;
      });
      const [where] = await engine.ask(askPoint([dest()], false));
      return { ticket, where };
    };
    const r1 = await round(EMPTY_STATE, undefined, handler);
    const r2 = await round(
      r1.suspension!.state,
      { dest: { action: 'accept', content: { value: 'Kyiv' } } },
      handler,
    );
    expect(runs).toBe(1);
    expect(r2.value).toEqual({ ticket: 1, where: { action: 'accept', value: 'Kyiv' } });
    expect(keys).toEqual([`${EMPTY_STATE.callId}.ticket`]);
    // A client that sends the same round twice re-runs that round's new work, with the same key.
    const after = async (engine: ReplayEngine) => {
      await engine.ask(askPoint([dest()], false));
      return engine.once('book', (key) => key);
    };
    const s1 = await round(EMPTY_STATE, undefined, after);
    const answer = { dest: { action: 'accept', content: { value: 'Oslo' } } };
    const once1 = await round(s1.suspension!.state, answer, after);
    const once2 = await round(s1.suspension!.state, answer, after);
    expect(once1.value).toBe(once2.value);
  });

  it('explains the replay rule when a handler asks something else on replay', async () => {
    const r1 = await round(EMPTY_STATE, undefined, trip);
    const r2 = await round(
      r1.suspension!.state,
      { dest: { action: 'accept', content: { value: 'Paris' } } },
      trip,
    );
    const other = async (engine: ReplayEngine) =>
      engine.ask(askPoint([form('dest', 'Where now?', ask.text())], false));
    await expect(round(r2.suspension!.state, {}, other)).rejects.toThrow(ReplayDivergenceError);
    await expect(round(r2.suspension!.state, {}, other)).rejects.toThrow(/ctx\.once/);
    // A new ask point where the last round stopped at another question is divergence too.
    await expect(round(r1.suspension!.state, {}, other)).rejects.toThrow(ReplayDivergenceError);
  });

  it('stops a call past the round cap', async () => {
    let state: RoundState = EMPTY_STATE;
    const endless = async (engine: ReplayEngine) => {
      for (let i = 0; ; i++)
        await engine.ask(askPoint([form(`q${i}`, `Question ${i}?`, ask.boolean())], false));
    };
    for (let i = 0; i < limits.maxRounds; i++) {
      const r = await round(
        state,
        { [`q${i - 1}`]: { action: 'accept', content: { value: true } } },
        endless,
      );
      state = r.suspension!.state;
    }
    await expect(
      round(state, { [`q${limits.maxRounds - 1}`]: { action: 'accept', content: { value: true } } }, endless),
    ).rejects.toThrow(RoundLimitError);
  });
});
