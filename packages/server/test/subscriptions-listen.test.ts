// subscriptions/listen (2026-07-28) over real HTTP: the acknowledgement names only what the server
// honours, the stream carries only the changes its filter asked for (each tagged with the
// subscription id), a malformed filter is -32602, and a closing server ends the stream with its result.
import { createServer, type Listening, type ParleyServer, resourceResult } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, MODERN, modernMeta } from './wire/modern-envelope.js';

let server: ParleyServer;
let listening: Listening;

beforeAll(async () => {
  server = createServer({ name: 'listen-test', version: '1.0.0', log: () => {} });
  server.tool('noop', {}, () => 'ok');
  server.resource('notes://{id}', { name: 'note' }, ({ uri }) => resourceResult({ uri, text: 'note' }));
});
afterAll(() => listening?.close());

interface Frame {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number };
}

async function listen(id: string, notifications: unknown) {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications, _meta: modernMeta(CAPABILITIES.formOnly) },
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
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const frames: Frame[] = [];
  return {
    status: response.status,
    async next(): Promise<Frame | undefined> {
      while (frames.length === 0) {
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
        if (!response.headers.get('content-type')?.includes('text/event-stream')) continue;
        const events = buffered.split('\n\n');
        buffered = events.pop() ?? '';
        for (const event of events)
          for (const line of event.split('\n'))
            if (line.startsWith('data:') && line.length > 5) frames.push(JSON.parse(line.slice(5)));
      }
      return frames.shift();
    },
  };
}

describe('subscriptions/listen', () => {
  it('acknowledges what it honours, sends only what was asked for, and ends with a result when the server closes', async () => {
    listening = await server.listen({ port: 0 });
    const stream = await listen('sub-1', {
      toolsListChanged: true,
      promptsListChanged: true, // no prompts on this server: not honoured
      resourceSubscriptions: ['notes://1'],
    });
    expect(stream.status).toBe(200);
    const tag = { 'io.modelcontextprotocol/subscriptionId': 'sub-1' };
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['notes://1'] }, _meta: tag },
    });

    server.notifyResourceUpdated('notes://2'); // not subscribed
    server.resource('notes://index', { name: 'index' }, ({ uri }) => resourceResult({ uri, text: '' })); // resources list: not asked
    server.tool('added', {}, () => 'added');
    server.notifyResourceUpdated('notes://1');
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: tag },
    });
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://1', _meta: tag },
    });

    const closing = listening.close();
    expect(await stream.next()).toMatchObject({
      id: 'sub-1',
      result: { resultType: 'complete', _meta: tag },
    });
    expect(await stream.next()).toBeUndefined();
    await closing;
  });

  it('refuses a malformed filter with -32602', async () => {
    listening = await server.listen({ port: 0 });
    for (const filter of [
      undefined,
      'all',
      { resourceSubscriptions: 'notes://1' },
      { resourceSubscriptions: [1] },
    ]) {
      const response = await fetch(listening.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'subscriptions/listen',
          params: { notifications: filter, _meta: modernMeta(CAPABILITIES.formOnly) },
        }),
      });
      expect(response.status, JSON.stringify(filter)).toBe(400);
      expect(((await response.json()) as Frame).error?.code).toBe(-32602);
    }
  });
});
