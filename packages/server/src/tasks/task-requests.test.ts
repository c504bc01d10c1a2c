import { describe, expect, it } from 'vitest';
import { TaskCancelledError } from './task-record.js';
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
    const task = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
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
    const task = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
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
    const task = store.create({ principal: undefined, tool: 'review', caller: 'address:127.0.0.1' });
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
    const task = store.create({ principal: undefined, tool: 'review', caller: 'address:127.0.0.1' });
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
    const task = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    expect(() => store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' })).toThrow(
      /Too many tasks/,
    );
    task.fail({ code: -32603, message: 'boom' });
    expect(task.createResult()).toMatchObject({ resultType: 'task', ttlMs: 60_000, pollIntervalMs: 500 });
    now.t += 59_999;
    expect(store.get(task.id, 'alice')).toBe(task);
    now.t += 1;
    expect(store.get(task.id, 'alice')).toBeUndefined();
    expect(() => store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' })).not.toThrow();
  });

  it('counts anonymous callers by address: one address at its cap leaves the others their own', () => {
    const { store } = setup();
    const anonymous = (address: string) => ({
      principal: undefined,
      tool: 'review',
      caller: `address:${address}`,
    });
    store.create(anonymous('10.0.0.1'));
    store.create(anonymous('10.0.0.1'));
    expect(() => store.create(anonymous('10.0.0.1'))).toThrow(/Too many tasks from this address/);
    expect(() => store.create(anonymous('10.0.0.2'))).not.toThrow();
    expect(() => store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' })).not.toThrow();
  });

  it('at the server cap forgets the oldest finished task, anonymous first, and refuses only when all run', () => {
    const now = { t: 1_000_000 };
    const store = new TaskStore(
      { ttlMs: 60_000, pollIntervalMs: 500, maxPerUser: 5, maxTasks: 3 },
      () => now.t,
    );
    const mine = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    now.t += 1;
    const theirs = store.create({ principal: undefined, tool: 'review', caller: 'address:10.0.0.1' });
    now.t += 1;
    const running = store.create({ principal: 'bob', tool: 'review', caller: 'user:bob' });
    mine.complete({ content: [] });
    now.t += 1;
    theirs.complete({ content: [] });
    const fourth = store.create({ principal: 'carol', tool: 'review', caller: 'user:carol' });
    expect(store.get(theirs.id, undefined)).toBeUndefined();
    expect(store.get(mine.id, 'alice')).toBe(mine);
    store.create({ principal: 'carol', tool: 'review', caller: 'user:carol' });
    expect(store.get(mine.id, 'alice')).toBeUndefined();
    expect(() => store.create({ principal: 'dave', tool: 'review', caller: 'user:dave' })).toThrow(
      /this server holds 3, all still running/,
    );
    expect([running.status, fourth.status]).toEqual(['working', 'working']);
  });
});

describe('TaskRecord questions', () => {
  it('withdraws an unanswered question after its timeout, and the task goes back to working', async () => {
    const { store } = setup();
    const task = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    const asked = task.waitFor('a', request, { ms: 20, error: () => new Error('timed out') });
    expect(task.status).toBe('input_required');
    await expect(asked).rejects.toThrow('timed out');
    expect(task.status).toBe('working');
    expect(task.detailed()).not.toHaveProperty('inputRequests');
  });

  it('ends the waiting questions of a cancelled task', async () => {
    const { store } = setup();
    const task = store.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    const asked = task.waitFor('a', request);
    task.cancel();
    await expect(asked).rejects.toThrow(TaskCancelledError);
  });
});
