// Resumable SSE streams on 2025 sessions over HTTP: a call that gives its connection back with
// ctx.closeStream() goes on; the official client reconnects with Last-Event-ID after the stream's
// retry interval and receives everything the call sent later: its logs, its question (answered
// over the session as usual) and its result.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ask, createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let listening: Listening;

beforeAll(async () => {
  const server = createServer({ name: 'resumable-test', version: '1.0.0', log: () => {} });
  server.tool(
    'long_job',
    { description: 'Closes its stream, then logs, asks and answers' },
    async (_args, ctx) => {
      await ctx.log('info', 'before the stream closed');
      ctx.closeStream();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await ctx.log('info', 'after the stream closed');
      const name = await ctx.elicit('Name for the report?', ask.text(), { key: 'name' });
      return `Report for ${name.action === 'accept' ? name.value : 'nobody'}.`;
    },
  );
  listening = await server.listen({ port: 0, sseRetryMs: 100 });
});
afterAll(() => listening?.close());

describe('ctx.closeStream() on a 2025 session', () => {
  it('the client reconnects with Last-Event-ID and gets the logs, the question and the result sent after it', async () => {
    const client = new Client(
      { name: 'resumable-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { value: 'Ann' } }));
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params.data);
    });
    const resumedWith: string[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (lastEventId) resumedWith.push(lastEventId);
      return fetch(input, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { fetch: fetchSpy }));
    try {
      await client.setLoggingLevel('info');
      const result = await client.callTool({ name: 'long_job', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Report for Ann.' }]);
      expect(logs).toEqual(['before the stream closed', 'after the stream closed']);
      expect(resumedWith.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
