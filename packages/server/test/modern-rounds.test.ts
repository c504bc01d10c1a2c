// 2026-07-28 rounds over the wire: the same handler replayed round after round, driven byte by byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type ModernWire } from './wire/modern-envelope.js';
import {
  accept,
  cancel,
  countersOf,
  decline,
  errorOf,
  inputRequiredOf,
  toolResultOf,
} from './wire/modern-results.js';
import { startModernWire, type Transport } from './wire/start-modern.js';

const ORDER = { order: 'A-7' };

describe.each([['stdio'], ['http']] as [Transport][])('2026-07-28 rounds over %s', (transport) => {
  let wire: ModernWire;
  beforeAll(async () => {
    wire = await startModernWire(transport, {
      PARLEY_FIXTURE_MAX_ROUNDS: '4',
      PARLEY_FIXTURE_MAX_TRIES: '3',
    });
  });
  afterAll(() => wire?.close());

  const book = (round: { inputResponses?: unknown; requestState?: unknown } = {}) =>
    callTool(wire, 'book_return', ORDER, round);

  /** Runs the booking up to its pickup round (boxes answered) and returns that round. */
  async function toPickupRound(boxes = 2) {
    const first = inputRequiredOf(await book());
    return inputRequiredOf(
      await book({ requestState: first.requestState, inputResponses: { boxes: accept(boxes) } }),
    );
  }

  it('runs a multi-round flow to its end: one question, then an elicitAll batch in one round', async () => {
    const before = await countersOf(wire);

    const first = inputRequiredOf(await book());
    expect(Object.keys(first.inputRequests)).toEqual(['boxes']);
    expect(first.inputRequests.boxes).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'How many boxes?',
        requestedSchema: {
          type: 'object',
          properties: { value: { type: 'integer', minimum: 1, maximum: 3 } },
          required: ['value'],
        },
      },
    });

    const second = inputRequiredOf(
      await book({ requestState: first.requestState, inputResponses: { boxes: accept(2) } }),
    );
    expect(Object.keys(second.inputRequests).sort()).toEqual(['date', 'slot']);
    expect(second.inputRequests.date?.params.message).toBe('Pickup date?');
    expect(second.inputRequests.slot?.params.message).toBe('Morning or afternoon?');
    expect(second.requestState).not.toBe(first.requestState);

    const done = toolResultOf(
      await book({
        requestState: second.requestState,
        inputResponses: { date: accept('2026-09-01'), slot: accept('pm') },
      }),
    );
    const after = await countersOf(wire);
    expect(done).toEqual({
      isError: false,
      text: `Booked 2 box(es) for order A-7, label LBL-${before.labels + 1}, pickup 2026-09-01 pm.`,
    });
    // The handler ran once per round, but its ctx.once side effect ran once for the whole call.
    expect((after.runs.book_return ?? 0) - (before.runs.book_return ?? 0)).toBe(3);
    expect(after.labels - before.labels).toBe(1);
  });

  it('keeps the valid part of a batch answer and asks again only for the rest', async () => {
    const pickup = await toPickupRound(1);
    const partial = inputRequiredOf(
      await book({ requestState: pickup.requestState, inputResponses: { date: accept('2026-10-02') } }),
    );
    expect(Object.keys(partial.inputRequests)).toEqual(['slot']);
    const done = toolResultOf(
      await book({ requestState: partial.requestState, inputResponses: { slot: accept('am') } }),
    );
    expect(done.text).toMatch(/^Booked 1 box\(es\) for order A-7, label LBL-\d+, pickup 2026-10-02 am\.$/);
  });

  it('hands decline and cancel to the handler as themselves, for single questions and batches', async () => {
    const first = inputRequiredOf(await book());
    for (const [answer, text] of [
      [decline, 'No return booked (decline).'],
      [cancel, 'No return booked (cancel).'],
    ] as const) {
      const reply = await book({ requestState: first.requestState, inputResponses: { boxes: answer } });
      expect(toolResultOf(reply)).toEqual({ isError: false, text });
    }
    const pickup = await toPickupRound();
    const mixed = toolResultOf(
      await book({
        requestState: pickup.requestState,
        inputResponses: { date: decline, slot: accept('am') },
      }),
    );
    expect(mixed.text).toMatch(/^Return LBL-\d+ for order A-7 kept without a pickup \(decline\/accept\)\.$/);
  });

  it('asks an invalid answer again with its reason, and ends the call after maxTries invalid answers', async () => {
    const first = inputRequiredOf(await book());
    const reasked = inputRequiredOf(
      await book({ requestState: first.requestState, inputResponses: { boxes: accept(7) } }),
    );
    expect(Object.keys(reasked.inputRequests)).toEqual(['boxes']);
    const message = reasked.inputRequests.boxes!.params.message;
    expect(message).toMatch(/^That answer could not be used: .*between 1 and 3.*\n\nHow many boxes\?$/s);
    // The re-asked question is the same question: same schema.
    expect(reasked.inputRequests.boxes!.params.requestedSchema).toEqual(
      first.inputRequests.boxes!.params.requestedSchema,
    );

    const fixed = inputRequiredOf(
      await book({ requestState: reasked.requestState, inputResponses: { boxes: accept(3) } }),
    );
    expect(Object.keys(fixed.inputRequests).sort()).toEqual(['date', 'slot']);

    let state = first.requestState;
    for (let tries = 1; tries < 3; tries++) {
      state = inputRequiredOf(
        await book({ requestState: state, inputResponses: { boxes: accept('many') } }),
      ).requestState;
    }
    const ended = toolResultOf(await book({ requestState: state, inputResponses: { boxes: accept(0) } }));
    expect(ended.isError).toBe(true);
    expect(ended.text).toMatch(
      /^The answer was still not valid after 3 tries \(.+\)\. Call the tool again to start over\.$/,
    );
  });

  it('uses an answer under the asked key even without a requestState', async () => {
    const ahead = inputRequiredOf(await book({ inputResponses: { boxes: accept(3) } }));
    expect(Object.keys(ahead.inputRequests).sort()).toEqual(['date', 'slot']);
    const done = toolResultOf(
      await book({
        requestState: ahead.requestState,
        inputResponses: { date: accept('2026-11-03'), slot: accept('pm') },
      }),
    );
    expect(done.text).toMatch(/^Booked 3 box\(es\)/);
  });

  it('asks a missing answer again (nothing, or only unrelated keys, came back)', async () => {
    const first = inputRequiredOf(await book());
    for (const round of [
      { requestState: first.requestState, inputResponses: {} },
      { requestState: first.requestState },
      { requestState: first.requestState, inputResponses: { wrong_key: accept(2) } },
      { inputResponses: { wrong_key: { action: 'accept', content: { data: 'wrong' } } } },
    ]) {
      const again = inputRequiredOf(await book(round));
      expect(again.inputRequests).toEqual(first.inputRequests);
    }
  });

  it('ignores keys it did not ask for', async () => {
    const first = inputRequiredOf(await book());
    const next = inputRequiredOf(
      await book({
        requestState: first.requestState,
        inputResponses: {
          boxes: accept(1),
          unknown_extra_key: { action: 'accept', content: { value: 'x' } },
          another_unexpected: {},
        },
      }),
    );
    expect(Object.keys(next.inputRequests).sort()).toEqual(['date', 'slot']);
  });

  it('answers -32602 to inputResponses that is not an object or holds a non-object, before the handler runs', async () => {
    const first = inputRequiredOf(await book());
    const before = await countersOf(wire);
    for (const inputResponses of [
      null,
      5,
      'boxes',
      [accept(2)],
      { boxes: 12345 },
      { boxes: null },
      { boxes: [] },
    ]) {
      const reply = await book({ requestState: first.requestState, inputResponses });
      const error = errorOf(reply, -32602);
      expect(error.message).toMatch(/^Invalid inputResponses: /);
      if (transport === 'http') expect(reply.status).toBe(400);
    }
    expect((await countersOf(wire)).runs.book_return).toBe(before.runs.book_return);

    // An object that is not an ElicitResult is caught when the handler reaches the question.
    const notAnAnswer = await book({
      requestState: first.requestState,
      inputResponses: { boxes: { action: 'maybe' } },
    });
    expect(errorOf(notAnAnswer, -32602).message).toMatch(/'boxes'/);
  });

  it('stops a call that needs more rounds than maxRounds, and lets one at the cap finish', async () => {
    const play = async (questions: number) => {
      let reply = await callTool(wire, 'quiz', { questions });
      for (let n = 1; ; n++) {
        const result = reply.message.result;
        if (result?.resultType !== 'input_required') return toolResultOf(reply);
        const { requestState } = inputRequiredOf(reply);
        reply = await callTool(
          wire,
          'quiz',
          { questions },
          { requestState, inputResponses: { [`n${n}`]: accept(`a${n}`) } },
        );
      }
    };
    expect(await play(4)).toEqual({ isError: false, text: 'Answers: a1, a2, a3, a4' });
    const stopped = await play(5);
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toBe(
      'This call needed more than 4 rounds of questions and was stopped. Ask several questions in one round ' +
        'with ctx.elicitAll() or ask.form(), or raise `maxRounds` in createServer().',
    );
  });

  it('ends with the replay-divergence error when a handler asks something else on replay', async () => {
    const first = inputRequiredOf(await callTool(wire, 'drifting', {}));
    expect(first.inputRequests.ready?.params.message).toMatch(/^Ready\? \(run \d+\)$/);
    const ended = toolResultOf(
      await callTool(
        wire,
        'drifting',
        {},
        { requestState: first.requestState, inputResponses: { ready: accept(true) } },
      ),
    );
    expect(ended.isError).toBe(true);
    expect(ended.text).toMatch(/^Replay diverged at ask point 1 \(form 'ready': Ready\? \(run \d+\)\): /);
    expect(ended.text).toContain('await ctx.once(name, fn)');
    await expect.poll(() => wire.log()).toContain('Replay diverged at ask point 1');
  });
});
