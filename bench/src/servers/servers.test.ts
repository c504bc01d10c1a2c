import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdSource, parseReply, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import { openingRequest, REQUEST_HEADERS, retryRequest } from '../load/messages.js';
import { listenFloor } from './floor.js';
import { listenJsonFloor } from './json-floor.js';
import type { ServerKind } from './kinds.js';
import { listenParley } from './parley.js';
import { listenSdk } from './sdk.js';
import { listenSdkFloor } from './sdk-floor.js';
import type { ServerStats } from './side-channel.js';

// The servers run in this process here (the bench runs each in its own); what matters is
// that they serve the same workload, so the bench compares like with like.
const running: Partial<Record<ServerKind, { url: string; close(): Promise<void> }>> = {};

beforeAll(async () => {
  running.parley = await listenParley();
  running.sdk = await listenSdk();
  running.floor = await listenFloor();
  running['json-floor'] = await listenJsonFloor();
  running['sdk-floor'] = await listenSdkFloor();
  running['parley-use'] = await listenParley({ feature: 'use' });
  running['parley-otel'] = await listenParley({ feature: 'otel' });
});

afterAll(async () => {
  await Promise.all(Object.values(running).map((server) => server.close()));
});

describe.each(['parley', 'sdk', 'floor', 'json-floor', 'sdk-floor', 'parley-use', 'parley-otel'] as const)(
  'the %s server',
  (kind) => {
    it('serves whole survey flows of 1, 5 and 20 questions, one question per round', async () => {
      const poster = new KeepAlivePoster(running[kind]!.url, 2);
      try {
        for (const questions of [1, 5, 20]) {
          const flow = await runFlow(poster, questions, new IdSource());
          expect(flow.roundNs).toHaveLength(questions + 1);
          expect(flow.stateChars).toHaveLength(questions);
        }
      } finally {
        poster.close();
      }
    });

    it('answers the stats side channel with its own CPU time and memory', async () => {
      const response = await fetch(new URL('/stats?gc=1', running[kind]!.url));
      const stats = (await response.json()) as ServerStats;
      expect(stats.cpu.user).toBeGreaterThan(0);
      expect(stats.memory.heapUsed).toBeGreaterThan(0);
      expect(stats.handlersRunning).toBe(0);
    });
  },
);

describe.each(['parley', 'sdk'] as const)('the %s server', (kind) => {
  it('refuses a tampered requestState (its state protection is really on)', async () => {
    const poster = new KeepAlivePoster(running[kind]!.url, 1);
    try {
      const first = parseReply((await poster.post(openingRequest(1, 2), REQUEST_HEADERS)).body);
      const state = first?.result?.requestState;
      expect(typeof state).toBe('string');
      const tampered = `${state!.slice(0, -2)}${state!.endsWith('AA') ? 'BB' : 'AA'}`;
      const reply = await poster.post(retryRequest(2, 2, 0, tampered), REQUEST_HEADERS);
      expect(parseReply(reply.body)).toMatchObject({ id: 2, error: { code: -32602 } });
    } finally {
      poster.close();
    }
  });
});

describe('the SDK floor', () => {
  const post = async (body: object, headers: Record<string, string> = REQUEST_HEADERS) => {
    const poster = new KeepAlivePoster(running['sdk-floor']!.url, 1);
    try {
      return await poster.post(JSON.stringify(body), headers);
    } finally {
      poster.close();
    }
  };
  const envelope = JSON.parse(openingRequest(1, 1)).params._meta;

  it("passes each request through the SDK's inbound ladder: a header that contradicts the body is refused", async () => {
    const reply = await post(JSON.parse(openingRequest(7, 1)), {
      ...REQUEST_HEADERS,
      'mcp-method': 'tools/list',
    });
    expect(reply.status).toBe(400);
    expect(parseReply(reply.body)).toMatchObject({ id: 7, error: { message: /headers and body disagree/ } });
  });

  it("is served by an SDK server: a method with no handler gets the SDK's own error, the tool's errors its own", async () => {
    const unknown = await post(
      { jsonrpc: '2.0', id: 8, method: 'prompts/list', params: { _meta: envelope } },
      { ...REQUEST_HEADERS, 'mcp-method': 'prompts/list' },
    );
    expect(parseReply(unknown.body)).toMatchObject({ id: 8, error: { code: -32601 } });
    const invalid = await post(JSON.parse(openingRequest(9, 99)));
    expect(parseReply(invalid.body)).toMatchObject({ id: 9 });
    expect(parseReply(invalid.body)?.result).toBeUndefined();
  });
});
