// Tasks (the io.modelcontextprotocol/tasks extension) over real HTTP, with server.use() middleware
// around the calls: a tool's ctx.elicit reaches the person through the task, middleware sees the
// call that became a task, and a guard-style inputRequired() inside a task ends it with a clear error.
import { ask, createServer, input, inputRequired, type Listening, type RequestContext } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResponse } from './wire/http-wire.js';
import { CAPABILITIES, type Capabilities, MODERN, modernMeta } from './wire/modern-envelope.js';

const TASKS = { ...CAPABILITIES.formOnly, extensions: { 'io.modelcontextprotocol/tasks': {} } };

let listening: Listening;
const seen: { name: string | undefined; outcome: string | undefined; resultType: unknown }[] = [];

beforeAll(async () => {
  const server = createServer({ name: 'tasks-test', version: '1.0.0', log: () => {} });
  server.use(async (c: RequestContext, next) => {
    await next();
    seen.push({
      name: c.name,
      outcome: c.outcome?.type,
      resultType: (c.result as { resultType?: unknown } | undefined)?.resultType,
    });
  });
  server.tool(
    'review',
    { description: 'Asks for a verdict, as a task', task: 'optional' },
    async (_a, ctx) => {
      const verdict = await ctx.elicit('Ship it?', ask.boolean({ title: 'Ship it?' }), { key: 'verdict' });
      return verdict.action === 'accept' && verdict.value ? 'Shipped.' : 'Held back.';
    },
  );
  const confirm = { ok: input.elicit('Go?', ask.boolean()) };
  server.tool('guarded', { description: 'Guard style, as a task', task: 'required' }, async (_a, ctx) => {
    const { ok } = await ctx.answers(confirm);
    if (!ok) return inputRequired(confirm);
    return 'Went.';
  });
  listening = await server.listen({ port: 0 });
});
afterAll(() => listening?.close());

let nextId = 1;
/** One 2026-07-28 request with the headers SEP-2243 asks for (`Mcp-Name` is the task id for tasks/*). */
async function send(method: string, params: Record<string, unknown>, capabilities: Capabilities = TASKS) {
  const id = nextId++;
  const name = (params.name ?? params.taskId) as string | undefined;
  const message = { jsonrpc: '2.0', id, method, params: { _meta: modernMeta(capabilities), ...params } };
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify(message),
  });
  return readResponse(response, id);
}

/** Polls tasks/get until the task leaves `working`. */
async function settled(taskId: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 200; tries++) {
    const { result } = await send('tasks/get', { taskId });
    if (result?.status !== 'working') return result!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} stayed working`);
}

describe('tasks', () => {
  it('asks through the task with the same ctx.elicit, and middleware sees the call that became a task', async () => {
    seen.length = 0;
    const created = await send('tools/call', { name: 'review', arguments: {} });
    expect(created.result?.resultType).toBe('task');
    const taskId = String(created.result?.taskId);
    expect(seen).toEqual([{ name: 'review', outcome: 'complete', resultType: 'task' }]);

    const waiting = await settled(taskId);
    expect(waiting.status).toBe('input_required');
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['verdict']);

    const update = await send('tasks/update', {
      taskId,
      inputResponses: { verdict: { action: 'accept', content: { value: true } } },
    });
    expect(update.result?.resultType).toBe('complete');
    const done = await settled(taskId);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Shipped.' }] });
  });

  it('runs the same tool as a plain call, asking by input_required, when the client did not declare tasks', async () => {
    const first = await send('tools/call', { name: 'review', arguments: {} }, CAPABILITIES.formOnly);
    expect(first.result?.resultType).toBe('input_required');
    expect(Object.keys(first.result?.inputRequests as object)).toEqual(['verdict']);
  });

  it('ends a task whose handler returns inputRequired() with an error that names ctx.elicit', async () => {
    const created = await send('tools/call', { name: 'guarded', arguments: {} });
    expect(created.result?.resultType).toBe('task');
    const done = await settled(String(created.result?.taskId));
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ isError: true });
    expect(JSON.stringify(done.result)).toContain('ctx.elicit()');
  });

  it('refuses a task-only tool with -32021 when the client did not declare tasks', async () => {
    const refused = await send('tools/call', { name: 'guarded', arguments: {} }, CAPABILITIES.formOnly);
    expect(refused.error?.code).toBe(-32021);
  });
});
