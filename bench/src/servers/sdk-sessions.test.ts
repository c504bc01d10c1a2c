import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resultText, TOOL } from '../survey.js';
import type { RunningHttp } from './loopback.js';
import { listenSdkSessions } from './sdk-sessions.js';

let server: RunningHttp;
beforeAll(async () => {
  server = await listenSdkSessions();
});
afterAll(() => server.close());

async function connected(
  answer: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'test', version: '0.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept' as const,
    content: { answer },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  return { client, transport };
}

it('keeps each 2025-era session apart and asks its questions over it', async () => {
  const first = await connected('one');
  const second = await connected('two');
  try {
    expect(first.transport.sessionId).toBeDefined();
    expect(second.transport.sessionId).not.toBe(first.transport.sessionId);
    const [a, b] = await Promise.all([
      first.client.callTool({ name: TOOL, arguments: { questions: 2 } }),
      second.client.callTool({ name: TOOL, arguments: { questions: 1 } }),
    ]);
    expect(a.content).toEqual([{ type: 'text', text: resultText(['one', 'one']) }]);
    expect(b.content).toEqual([{ type: 'text', text: resultText(['two']) }]);
  } finally {
    await Promise.all([first.client.close(), second.client.close()]);
  }
});

it('refuses a request for a session it does not hold', async () => {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'no-such-session',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(response.status).toBe(404);
});
