import { describe, expect, it } from 'vitest';
import { answerTaskRequest, TASKS_EXTENSION } from './task-requests.js';
import { TaskStore } from './task-store.js';

const DECLARED = { extensions: { [TASKS_EXTENSION]: {} } };
const request = {
  method: 'elicitation/create',
  params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } },
} as const;

function setup(now = { t: 1_000_000 }) {
  const store = new TaskStore({ ttlMs: 60_000, pollIntervalMs: 500, maxPerUser: 2 }, () => now.t);
  return { store, now };
}

describe('tasks/get, tasks/update, tasks/cancel', () => {
  it('are refused with -32021 naming the extension when the request did not declare it', () => {
    const { store } = setup();
    const task = store.create('alice', 'review');
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = answerTaskRequest(store, method, { taskId: task.id, inputResponses: {} }, {}, 'alice');
      expect(answer).toMatchObject({
        status: 400,
        error: { code: -32021, data: { requiredCapabilities: DECLARED } },
      });
    }
  });

  it('answer -32601 for the removed tasks/result and tasks/list, and -32602 for an unknown id or another user', () => {
    const { store } = setup();
    const task = store.create('alice', 'review');
    expect(answerTaskRequest(store, 'tasks/list', {}, DECLARED, 'alice')).toMatchObject({
      status: 404,
      error: { code: -32601 },
    });
    expect(answerTaskRequest(store, 'tasks/result', { taskId: task.id }, DECLARED, 'alice')).toMatchObject({
      error: { code: -32601 },
    });
    expect(answerTaskRequest(store, 'tasks/get', { taskId: 'nope' }, DECLARED, 'alice')).toMatchObject({
      error: { code: -32602 },
    });
    expect(answerTaskRequest(store, 'tasks/get', { taskId: task.id }, DECLARED, 'mallory')).toMatchObject({
      error: { code: -32602 },
    });
    expect(answerTaskRequest(store, 'tasks/get', { taskId: task.id }, DECLARED, undefined)).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('surface open questions, take answers one key at a time, and inline the result once completed', async () => {
    const { store } = setup();
    const task = store.create(undefined, 'review');
    const first = task.waitFor('a', request);
    const second = task.waitFor('b', request);
    const get = () => answerTaskRequest(store, 'tasks/get', { taskId: task.id }, DECLARED, undefined);
    expect(get()).toMatchObject({
      result: { status: 'input_required', inputRequests: { a: request, b: request } },
    });
    const ack = answerTaskRequest(
      store,
      'tasks/update',
      { taskId: task.id, inputResponses: { a: { action: 'accept' }, junk: { x: 1 } } },
      DECLARED,
      undefined,
    );
    expect(ack).toEqual({ status: 200, result: { resultType: 'complete' } });
    await expect(first).resolves.toEqual({ action: 'accept' });
    const partial = get();
    expect(partial).toMatchObject({ result: { status: 'input_required' } });
    expect(
      Object.keys((partial as unknown as { result: { inputRequests: object } }).result.inputRequests),
    ).toEqual(['b']);
    answerTaskRequest(
      store,
      'tasks/update',
      { taskId: task.id, inputResponses: { b: { action: 'decline' } } },
      DECLARED,
      undefined,
    );
    await expect(second).resolves.toEqual({ action: 'decline' });
    expect(get()).toMatchObject({ result: { status: 'working' } });
    task.complete({ content: [{ type: 'text', text: 'done' }] });
    const done = get() as unknown as { result: Record<string, unknown> };
    expect(done.result).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    expect(done.result).not.toHaveProperty('requestState');
    expect(done.result).not.toHaveProperty('inputRequests');
    expect(
      answerTaskRequest(
        store,
        'tasks/update',
        { taskId: task.id, inputResponses: 'no' },
        DECLARED,
        undefined,
      ),
    ).toMatchObject({ error: { code: -32602 } });
  });

  it('cancel aborts the handler signal, keeps the task cancelled, and is idempotent on a finished task', () => {
    const { store } = setup();
    const task = store.create(undefined, 'review');
    expect(answerTaskRequest(store, 'tasks/cancel', { taskId: task.id }, DECLARED, undefined)).toEqual({
      status: 200,
      result: { resultType: 'complete' },
    });
    expect(task.abort.signal.aborted).toBe(true);
    task.complete({ content: [] });
    expect(task.status).toBe('cancelled');
    expect(answerTaskRequest(store, 'tasks/cancel', { taskId: task.id }, DECLARED, undefined)).toEqual({
      status: 200,
      result: { resultType: 'complete' },
    });
  });
});

describe('TaskStore', () => {
  it('keeps a finished task for its TTL after the last change, then forgets it; caps tasks per user', () => {
    const { store, now } = setup();
    const task = store.create('alice', 'review');
    store.create('alice', 'review');
    expect(() => store.create('alice', 'review')).toThrow(/Too many tasks/);
    task.fail({ code: -32603, message: 'boom' });
    expect(task.createResult()).toMatchObject({ resultType: 'task', ttlMs: 60_000, pollIntervalMs: 500 });
    now.t += 59_999;
    expect(store.get(task.id, 'alice')).toBe(task);
    now.t += 1;
    expect(store.get(task.id, 'alice')).toBeUndefined();
    expect(() => store.create('alice', 'review')).not.toThrow();
  });
});
