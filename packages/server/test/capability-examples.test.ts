// The README's capability examples (examples/capabilities.ts) run against a real server over HTTP,
// on 2025-11-25 with the official SDK client and on 2026-07-28 with raw requests, and the README
// shows exactly that code.
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Listening } from '@parley/server';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addCompletions,
  addImport,
  addResults,
  addSubscriptions,
  addTasks,
  cachingServer,
} from '../examples/capabilities.js';
import { CAPABILITIES, type Capabilities, MODERN, modernMeta } from './wire/modern-envelope.js';

const EXAMPLES = readFileSync(new URL('../examples/capabilities.ts', import.meta.url), 'utf8');
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const TASKS = { ...CAPABILITIES.formOnly, extensions: { 'io.modelcontextprotocol/tasks': {} } };

let listening: Listening;
let client: Client;
const updated: string[] = [];
let toolListChanges = 0;

beforeAll(async () => {
  const server = cachingServer();
  addResults(server, async (city) => (city === 'Oslo' ? 4 : 21));
  addImport(server);
  addCompletions(server);
  addSubscriptions(server);
  addTasks(server);
  listening = await server.listen({ port: 0 });
  client = new Client({ name: 'examples-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updated.push(notification.params.uri);
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    toolListChanges++;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
});
afterAll(async () => {
  await client?.close();
  await listening?.close();
});

interface Message {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

let nextId = 1;
/** One 2026-07-28 request; every message of its response (SSE or JSON), the response last. */
async function modern(
  method: string,
  params: Record<string, unknown>,
  capabilities: Capabilities = CAPABILITIES.formOnly,
  meta: Record<string, unknown> = {},
): Promise<{ reply: Message; notifications: Message[] }> {
  const id = nextId++;
  const name = params.name ?? params.uri ?? params.taskId;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...modernMeta(capabilities), ...meta } },
  };
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const messages: Message[] = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.length > 5)
        .map((line) => JSON.parse(line.slice(5)) as Message)
    : [JSON.parse(text) as Message];
  const reply = messages.find((message) => message.id === id);
  if (!reply) throw new Error(`no response to ${method}: ${text}`);
  return { reply, notifications: messages.filter((message) => message.method !== undefined) };
}

/** Polls tasks/get until the task leaves `working`. */
async function settled(taskId: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 200; tries++) {
    const { reply } = await modern('tasks/get', { taskId }, TASKS);
    if (reply.result?.status !== 'working') return reply.result!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} stayed working`);
}

async function eventually(check: () => boolean): Promise<void> {
  await expect.poll(check, { timeout: SETTLE_TIMEOUT_MS, interval: 20 }).toBe(true);
}

describe('the README capability examples', () => {
  it('are the code the README shows', () => {
    for (const region of ['results', 'progress-logs', 'completions', 'subscriptions', 'caching', 'tasks']) {
      const code = new RegExp(`// #region ${region}\\n([\\s\\S]*?)// #endregion ${region}`).exec(
        EXAMPLES,
      )?.[1];
      expect(code, region).toBeTruthy();
      expect(README).toContain(code!.trimEnd());
    }
  });

  it('results: text, image, embedded resource and link; structured output; tool errors; JSON Schema as written', async () => {
    const report = await client.callTool({ name: 'report', arguments: {} });
    expect((report.content as { type: string }[]).map((block) => block.type)).toEqual([
      'text',
      'image',
      'resource',
      'resource_link',
    ]);
    const weather = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(weather.structuredContent).toEqual({ celsius: 4 });
    expect(weather.content).toEqual([{ type: 'text', text: '{"celsius":4}' }]);
    const missing = await client.callTool({ name: 'find_order', arguments: { id: 'A7' } });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No order A7.' }] });

    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'tag')?.inputSchema).toEqual({
      type: 'object',
      properties: { tag: { type: 'string', pattern: '^[a-z]+$' } },
      required: ['tag'],
      additionalProperties: false,
    });
    expect(await client.callTool({ name: 'tag', arguments: { tag: 'red' } })).toMatchObject({
      content: [{ type: 'text', text: 'Tagged red.' }],
    });
    expect(await client.callTool({ name: 'tag', arguments: { tag: 'Red!' } })).toMatchObject({
      isError: true,
    });

    const prompt = await client.getPrompt({ name: 'describe_image' });
    expect(prompt.messages.map((m) => m.content.type)).toEqual(['image', 'text']);
    const logo = await client.readResource({ uri: 'logo://small' });
    expect(logo.contents[0]).toMatchObject({ uri: 'logo://small', mimeType: 'image/png' });
    expect(
      Buffer.from((logo.contents[0] as { blob: string }).blob, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('progress and logs: a three-round call on 2026-07-28 sends each notification once', async () => {
    const notifications: Message[] = [];
    let round: Record<string, unknown> = {};
    let result: Record<string, unknown> | undefined;
    for (let n = 1; n <= 4 && !result; n++) {
      const { reply, notifications: sent } = await modern(
        'tools/call',
        { name: 'import_rows', arguments: {}, ...round },
        CAPABILITIES.formOnly,
        { 'io.modelcontextprotocol/logLevel': 'debug', progressToken: `import-${n}` },
      );
      notifications.push(...sent);
      if (reply.result?.resultType === 'input_required') {
        const keys = Object.keys(reply.result.inputRequests as object);
        round = {
          requestState: reply.result.requestState,
          inputResponses: Object.fromEntries(
            keys.map((key) => [key, { action: 'accept', content: { value: true } }]),
          ),
        };
      } else result = reply.result;
    }
    expect(result?.content).toEqual([{ type: 'text', text: 'Imported 3 batches.' }]);
    expect(
      notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params?.data),
    ).toEqual(['Import started', 'Batch 1 imported', 'Batch 2 imported', 'Batch 3 imported']);
    expect(
      notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params?.progress),
    ).toEqual([0, 1, 2, 3]);
  });

  it('completions: prompt arguments (seeing the others) and template variables', async () => {
    const to = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'to', value: 'P' },
      context: { arguments: { from: 'Paris' } },
    });
    expect(to.completion.values).toEqual(['Parma', 'Porto', 'Prague']);
    const id = await client.complete({
      ref: { type: 'ref/resource', uri: 'orders://{id}' },
      argument: { name: 'id', value: '10' },
    });
    expect(id.completion.values).toEqual(['1001', '1002']);
  });

  it('subscriptions: resources/updated for a subscribed URI, tools/list_changed when a tool is added', async () => {
    await client.subscribeResource({ uri: 'shop://stock' });
    await client.callTool({ name: 'sell_one', arguments: {} });
    await eventually(() => updated.includes('shop://stock'));
    await client.unsubscribeResource({ uri: 'shop://stock' });

    const before = toolListChanges;
    await client.callTool({ name: 'open_returns', arguments: {} });
    await eventually(() => toolListChanges > before);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('return_one');
    const count = updated.length;
    await client.callTool({ name: 'return_one', arguments: {} }); // unsubscribed: no update now
    const stock = await client.readResource({ uri: 'shop://stock' });
    expect(stock.contents[0]).toMatchObject({ text: '10 in stock' });
    expect(updated.length).toBe(count);
  });

  it('subscriptions/listen on 2026-07-28: acknowledged, then only what the filter asked for', async () => {
    const stop = new AbortController();
    const body = {
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions: ['shop://stock'] },
        _meta: modernMeta(CAPABILITIES.formOnly),
      },
    };
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify(body),
      signal: stop.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const frames: Message[] = [];
    const nextFrame = async (): Promise<Message> => {
      while (frames.length === 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the listen stream ended');
        buffered += decoder.decode(value, { stream: true });
        const events = buffered.split('\n\n');
        buffered = events.pop() ?? '';
        for (const event of events)
          for (const line of event.split('\n'))
            if (line.startsWith('data:') && line.length > 5) frames.push(JSON.parse(line.slice(5)));
      }
      return frames.shift()!;
    };
    try {
      const acknowledged = await nextFrame();
      expect(acknowledged).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { resourceSubscriptions: ['shop://stock'] } },
      });
      await modern('tools/call', { name: 'sell_one', arguments: {} });
      expect(await nextFrame()).toMatchObject({
        method: 'notifications/resources/updated',
        params: { uri: 'shop://stock', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
      });
    } finally {
      stop.abort();
    }
  });

  it('caching hints: the setting on tools/list, the default (do not cache) elsewhere', async () => {
    const tools = (await modern('tools/list', {})).reply.result;
    expect(tools).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const prompts = (await modern('prompts/list', {})).reply.result;
    expect(prompts).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('tasks: ctx.elicit through the task, and a task started after a round of questions', async () => {
    const created = (
      await modern('tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } }, TASKS)
    ).reply.result;
    expect(created?.resultType).toBe('task');
    const taskId = String(created?.taskId);
    const waiting = await settled(taskId);
    expect(waiting).toMatchObject({ status: 'input_required' });
    expect(Object.keys(waiting.inputRequests as object)).toEqual(['confirm']);
    await modern(
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { value: true } } } },
      TASKS,
    );
    expect(await settled(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Deleted a.txt.' }] },
    });

    const asked = (await modern('tools/call', { name: 'build_report', arguments: {} }, TASKS)).reply.result;
    expect(asked?.resultType).toBe('input_required');
    const started = (
      await modern(
        'tools/call',
        {
          name: 'build_report',
          arguments: {},
          requestState: asked?.requestState,
          inputResponses: { for: { action: 'accept', content: { value: 'Ann' } } },
        },
        TASKS,
      )
    ).reply.result;
    expect(started?.resultType).toBe('task');
    expect(await settled(String(started?.taskId))).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Report for Ann is ready.' }] },
    });
  });
});
