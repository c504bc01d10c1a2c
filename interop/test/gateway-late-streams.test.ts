// A TypeScript SDK v1 server asks with server.elicitInput, which sends the question on the session's
// standalone GET stream and drops it when that stream is not open yet. Behind the gateway, each call
// of an anonymous 2026-07-28 host gets a 2025 session of its own, opened for that call: the gateway
// must not call before the stream is open. Here the peer serves every GET 300 ms late, as a busy
// machine may; each host, Parley's client, must still be asked and get its result.
import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './gateway.js';
import { peer, type RunningPeer, startHttpPeer } from './peers.js';

let upstream: RunningPeer;
let gateway: RunningGateway;
beforeAll(async () => {
  upstream = await startHttpPeer(process.execPath, [peer('ts-v1-server.mjs'), 'http'], '/mcp', {
    TS_V1_GET_DELAY_MS: '300',
  });
  gateway = await startGateway({ upstreams: { tsv1: { url: upstream.url, era: '2025-11-25' } } });
});
afterAll(async () => {
  await gateway?.stop();
  await upstream?.stop();
});

describe('a TS SDK v1 server whose standalone streams open late, behind the gateway', () => {
  it('asks every call of a 2026-07-28 host, each on a session of its own', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = await connect(gateway.url, {
          ui: scripted({ q1: { ok: true } }, { modes: { form: true, url: false } }),
          era: 'modern',
        });
        try {
          const result = await client.callTool('confirm');
          return (result.content as { text: string }[])[0]?.text;
        } finally {
          await client.close();
        }
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: 4 }, () => '{"ok":true}'));
  });
});
