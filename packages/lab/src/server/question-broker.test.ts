import { describe, expect, it } from 'vitest';
import type { LabEvent, QuestionContext } from '../protocol.js';
import { LabState } from './lab-state.js';
import { QuestionBroker } from './question-broker.js';

const context: QuestionContext = {
  server: { name: 'fixture', version: '1' },
  call: { kind: 'tool', name: 'x' },
  round: 1,
  position: { index: 1, of: 1 },
  era: 'modern',
};
const form = {
  mode: 'form' as const,
  serverId: 's1',
  context,
  request: { message: 'Name?', requestedSchema: { type: 'object' as const, properties: {} } },
};

function setup() {
  const state = new LabState();
  const events: LabEvent[] = [];
  state.subscribe((event) => events.push(event));
  return { state, events, broker: new QuestionBroker(state) };
}

describe('QuestionBroker', () => {
  it('shows a question, resolves with the answer, then withdraws it', async () => {
    const { broker, events, state } = setup();
    const answer = broker.ask(form, new AbortController().signal);
    const shown = events.find((event) => event.type === 'question');
    expect(shown).toMatchObject({ type: 'question', question: { id: 'q1', mode: 'form', serverId: 's1' } });
    expect(broker.answer('q1', { action: 'accept', content: { name: 'Ada' } })).toBeUndefined();
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(events.at(-1)).toEqual({ type: 'question-closed', questionId: 'q1' });
    expect(state.question('q1')).toBeUndefined();
  });

  it('accepts one answer only', async () => {
    const { broker } = setup();
    const answer = broker.ask(form, new AbortController().signal);
    broker.answer('q1', { action: 'decline' });
    expect(broker.answer('q1', { action: 'accept' })).toMatchObject({ status: 404 });
    await expect(answer).resolves.toEqual({ action: 'decline' });
  });

  it('keeps a question open after a malformed answer', async () => {
    const { broker } = setup();
    const answer = broker.ask(form, new AbortController().signal);
    expect(broker.answer('q1', { action: 'maybe' })).toMatchObject({ status: 400 });
    broker.answer('q1', { action: 'cancel' });
    await expect(answer).resolves.toEqual({ action: 'cancel' });
  });

  it('withdraws a question whose call ends, answering cancel', async () => {
    const { broker, state } = setup();
    const stop = new AbortController();
    const answer = broker.ask(form, stop.signal);
    stop.abort();
    await expect(answer).resolves.toEqual({ action: 'cancel' });
    expect(state.question('q1')).toBeUndefined();
    expect(broker.answer('q1', { action: 'accept' })).toMatchObject({ status: 404 });
  });

  it('never shows a question whose call already ended', async () => {
    const { broker, events } = setup();
    const stop = new AbortController();
    stop.abort();
    await expect(broker.ask(form, stop.signal)).resolves.toEqual({ action: 'cancel' });
    expect(events).toEqual([]);
  });

  it('cancels every open question when the lab closes', async () => {
    const { broker } = setup();
    const first = broker.ask(form, new AbortController().signal);
    const second = broker.ask(
      { ...form, mode: 'url', request: { message: 'Go', url: 'https://example.com' } },
      new AbortController().signal,
    );
    broker.cancelAll();
    await expect(Promise.all([first, second])).resolves.toEqual([{ action: 'cancel' }, { action: 'cancel' }]);
  });
});
