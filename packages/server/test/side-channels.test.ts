// A handler's log messages and progress reach the client exactly once, on both eras: on 2026-07-28
// every round re-runs the handler from the top, and what an earlier round already sent is not sent
// again; on the 2025 eras a ctx.elicit handler runs once and its notifications ride on the session,
// and a guard-style handler runs again from the top after each guard, not sending again either.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ask, createServer, input, inputRequired, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from './wire/http-wire.js';
import { CAPABILITIES, modernMeta } from './wire/modern-envelope.js';

let listening: Listening;
beforeAll(async () => {
  const server = createServer({ name: 'side-channels', version: '1.0.0', log: () => {} });
  server.tool(
    'three_rounds',
    { description: 'Logs and reports progress before each of three questions' },
    async (_args, ctx) => {
      const names: string[] = [];
      for (const step of [1, 2, 3]) {
        await ctx.log('info', `before question ${step}`);
        await ctx.progress(step - 1, 3, `step ${step}`);
        const answer = await ctx.elicit(`Name ${step}?`, ask.text(), { key: `q${step}` });
        names.push(answer.action === 'accept' ? answer.value : answer.action);
      }
      await ctx.log('debug', 'all answered');
      await ctx.progress(3, 3, 'done');
      return names.join(', ');
    },
  );
  server.tool(
    'three_guards',
    { description: 'Guard style: logs and reports progress before each of three guards' },
    async (_args, ctx) => {
      const names = ctx.data<string[]>() ?? [];
      for (const step of [1, 2, 3]) {
        await ctx.log('info', `before question ${step}`);
        await ctx.progress(step - 1, 3, `step ${step}`);
        if (names.length >= step) continue;
        const key = `q${step}`;
        const questions = { [key]: input.elicit(`Name ${step}?`, ask.text()) };
        const answer = (await ctx.answers(questions))[key];
        if (!answer) return inputRequired(questions, { data: names });
        names.push(answer.action === 'accept' ? answer.value : answer.action);
      }
      await ctx.log('debug', 'all answered');
      await ctx.progress(3, 3, 'done');
      return names.join(', ');
    },
  );
  listening = await server.listen({ port: 0 });
});
afterAll(() => listening?.close());

const EXPECTED_LOGS = ['before question 1', 'before question 2', 'before question 3', 'all answered'];
const EXPECTED_PROGRESS = [0, 1, 2, 3];

interface Message {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
}

/** POSTs one 2026-07-28 round and returns every message of its response (SSE or JSON). */
async function round(id: number, params: Record<string, unknown>): Promise<Message[]> {
  const message = { jsonrpc: '2.0', id, method: 'tools/call', params };
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: modernHeaders(message),
    body: JSON.stringify(message),
  });
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 5)
    .map((line) => JSON.parse(line.slice(5)) as Message);
}

describe('ctx.log and ctx.progress', () => {
  it.each([
    ['three_rounds', 'ctx.elicit'],
    ['three_guards', 'guard style'],
  ])(
    'on 2026-07-28: a three-round call (%s, %s) sends each notification once, though the handler runs four times',
    async (tool) => {
      const notifications: Message[] = [];
      let rounds = 0;
      let requestState: unknown;
      let inputResponses: Record<string, unknown> | undefined;
      let result: Record<string, unknown> | undefined;
      for (let id = 1; id <= 4 && !result; id++) {
        const messages = await round(id, {
          _meta: {
            ...modernMeta(CAPABILITIES.formOnly),
            'io.modelcontextprotocol/logLevel': 'debug',
            progressToken: `call-round-${id}`,
          },
          name: tool,
          arguments: {},
          ...(inputResponses && { inputResponses }),
          ...(requestState !== undefined && { requestState }),
        });
        notifications.push(...messages.filter((message) => message.method !== undefined));
        const reply = messages.find((message) => message.id === id)?.result;
        expect(reply).toBeDefined();
        if (reply?.resultType === 'input_required') {
          rounds++;
          requestState = reply.requestState;
          const keys = Object.keys(reply.inputRequests as object);
          inputResponses = Object.fromEntries(
            keys.map((key) => [key, { action: 'accept', content: { value: `name-${key}` } }]),
          );
        } else result = reply;
      }
      expect(rounds).toBe(3);
      expect(result?.content).toEqual([{ type: 'text', text: 'name-q1, name-q2, name-q3' }]);
      const logs = notifications
        .filter((n) => n.method === 'notifications/message')
        .map((n) => n.params?.data);
      const progress = notifications
        .filter((n) => n.method === 'notifications/progress')
        .map((n) => n.params?.progress);
      expect(logs).toEqual(EXPECTED_LOGS);
      expect(progress).toEqual(EXPECTED_PROGRESS);
    },
  );

  it('on 2026-07-28: without a log level in _meta no log is sent, and without a progressToken no progress', async () => {
    const messages = await round(1, {
      _meta: modernMeta(CAPABILITIES.formOnly),
      name: 'three_rounds',
      arguments: {},
    });
    expect(messages.filter((message) => message.method !== undefined)).toEqual([]);
    expect(messages.at(-1)?.result?.resultType).toBe('input_required');
  });

  it.each([
    ['three_rounds', 'ctx.elicit'],
    ['three_guards', 'guard style'],
  ])(
    'on 2025-11-25: the same call (%s, %s) sends each notification once, and honours logging/setLevel',
    async (tool) => {
      for (const [level, expectedLogs] of [
        ['debug', EXPECTED_LOGS],
        ['info', EXPECTED_LOGS.slice(0, 3)],
      ] as const) {
        const client = new Client(
          { name: 'side-channels-test', version: '1.0.0' },
          { capabilities: { elicitation: {} } },
        );
        let asked = 0;
        client.setRequestHandler('elicitation/create', () => {
          asked++;
          return { action: 'accept', content: { value: `name-q${asked}` } };
        });
        const logs: unknown[] = [];
        client.setNotificationHandler('notifications/message', (notification) => {
          logs.push(notification.params.data);
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
        await client.setLoggingLevel(level);
        const progress: number[] = [];
        const result = await client.callTool(
          { name: tool, arguments: {} },
          { onprogress: (update) => progress.push(update.progress) },
        );
        await client.close();
        expect(asked).toBe(3);
        expect(result.content).toEqual([{ type: 'text', text: 'name-q1, name-q2, name-q3' }]);
        expect(logs).toEqual(expectedLogs);
        expect(progress).toEqual(EXPECTED_PROGRESS);
      }
    },
  );
});
