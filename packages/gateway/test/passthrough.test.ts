import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, textOf, type Upstream } from './support.js';

// Everything of MCP besides questions passes through: logs, progress, cancellation, completions,
// list changes and resource subscriptions. The host here is the official SDK's client, on each era.
const UPSTREAM_ERAS = ['2026-07-28', '2025-11-25'] as const;
const HOSTS = [
  ['2025-11-25', { mode: 'legacy' }],
  ['2026-07-28', { mode: { pin: '2026-07-28' } }],
] as const;

async function sdkHost(url: string, negotiation: (typeof HOSTS)[number][1]) {
  const notifications: { method: string; params?: Record<string, unknown> }[] = [];
  const client = new Client(
    { name: 'sdk-host', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: negotiation },
  );
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as never);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, notifications };
}

describe.each(UPSTREAM_ERAS)('an upstream spoken to in %s', (upstreamEra) => {
  let desk: Upstream;
  let running: RunningGateway;
  beforeAll(async () => {
    desk = await startUpstream('parley-upstream.mjs', 'http');
    running = await startGateway({ upstreams: { desk: { url: desk.url, era: upstreamEra } } });
  });
  afterAll(async () => {
    await running?.stop();
    await desk?.stop();
  });

  describe.each(HOSTS)('for a %s host (the SDK client)', (hostEra, negotiation) => {
    it('passes the upstream’s logs at the level the host asked for, and its progress', async () => {
      const { client, notifications } = await sdkHost(running.url, negotiation);
      try {
        // A 2025 session sets its level once; a 2026-07-28 request names its own in _meta.
        if (hostEra === '2025-11-25') await client.setLoggingLevel('info');
        const level =
          hostEra === '2025-11-25' ? {} : { _meta: { 'io.modelcontextprotocol/logLevel': 'info' } };
        const progress: number[] = [];
        const result = await client.callTool(
          { name: 'chatty', ...level },
          { onprogress: (update: { progress: number }) => progress.push(update.progress) },
        );
        expect(textOf(result)).toBe('chatted');
        const logs = notifications
          .filter((note) => note.method === 'notifications/message')
          .map((note) => note.params?.data);
        expect(logs).toEqual(['starting']);
        expect(progress).toEqual([1, 2]);
      } finally {
        await client.close();
      }
    });

    it('cancels the upstream call when the host cancels', async () => {
      const { client } = await sdkHost(running.url, negotiation);
      try {
        const stop = new AbortController();
        const call = client.callTool({ name: 'wait' }, { signal: stop.signal });
        setTimeout(() => stop.abort(new Error('the person pressed stop')), 500);
        await expect(call).rejects.toThrow();
        await expect.poll(() => desk.stderr().split('cancelled wait').length - 1).toBeGreaterThanOrEqual(1);
      } finally {
        await client.close();
      }
    });

    it('completes prompt arguments and template variables from the upstream', async () => {
      const { client } = await sdkHost(running.url, negotiation);
      try {
        const who = await client.complete({
          ref: { type: 'ref/prompt', name: 'greet' },
          argument: { name: 'who', value: 'A' },
        });
        expect(who.completion.values).toEqual(['Ada', 'Alan']);
        const id = await client.complete({
          ref: { type: 'ref/resource', uri: 'desk://orders/{id}' },
          argument: { name: 'id', value: '100' },
        });
        expect(id.completion.values).toEqual(['1001', '1002']);
      } finally {
        await client.close();
      }
    });

    it('tells a subscribed host when the upstream says a resource changed', async () => {
      if (hostEra !== '2025-11-25') return; // 2026-07-28 hosts listen with subscriptions/listen, below.
      const { client, notifications } = await sdkHost(running.url, negotiation);
      try {
        await client.subscribeResource({ uri: 'desk://info' });
        await expect.poll(() => running.gateway.server.subscribedUris).toContain('desk://info');
        // The upstream hears of the subscription asynchronously; touch until its update arrives.
        await expect
          .poll(async () => {
            await client.callTool({ name: 'touch' });
            return notifications.some(
              (note) =>
                note.method === 'notifications/resources/updated' && note.params?.uri === 'desk://info',
            );
          })
          .toBe(true);
        await client.unsubscribeResource({ uri: 'desk://info' });
        expect(running.gateway.server.subscribedUris).not.toContain('desk://info');
      } finally {
        await client.close();
      }
    });
  });

  it('tells 2026-07-28 listeners about resource updates and new upstream tools', async () => {
    const { client, notifications } = await sdkHost(running.url, { mode: { pin: '2026-07-28' } });
    try {
      const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['desk://info'] });
      await expect
        .poll(async () => {
          await client.callTool({ name: 'touch' });
          return notifications.some((note) => note.method === 'notifications/resources/updated');
        })
        .toBe(true);
      await client.callTool({ name: 'grow' });
      await expect
        .poll(() => notifications.some((note) => note.method === 'notifications/tools/list_changed'))
        .toBe(true);
      const tools = await client.listTools(undefined, { cacheMode: 'refresh' } as never);
      expect(tools.tools.map((tool) => tool.name)).toContain('grown');
      expect(textOf(await client.callTool({ name: 'grown' }))).toBe('I am new');
      await stream.close();
    } finally {
      await client.close();
    }
  });
});
