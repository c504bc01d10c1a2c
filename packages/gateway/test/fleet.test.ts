// A fleet of gateways: `parley gateway` processes with a `fleet` section, sharing a real
// redis-server, in front of a Parley upstream spoken to in 2025-11-25 (its calls are held open in
// the replica that started them). Each test routes the host's requests to the replicas it chooses,
// so a round reaches a replica other than the one holding the call, as a balancer with no affinity does.
import { randomBytes } from 'node:crypto';
import { connect, type ElicitationUI, scripted } from '@parley/client';
import { questionPagePerson } from '@parley/client/testing';
import { type GatewayProcess, type RedisServer, startGatewayProcess, startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, textOf, type Upstream } from './support.js';

const STATE_KEYS = `k1:${randomBytes(32).toString('base64')}`;

/**
 * A 2026-07-28 `tools/call` posted as a host sends it, every JSON-RPC message of its answer handed
 * to `heard` as it arrives (notifications, then the response); resolves with the response's result.
 */
async function callRound(
  url: string,
  params: Record<string, unknown>,
  heard: (message: Record<string, unknown>) => void = () => {},
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': String(params.name),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    ...(signal && { signal }),
  });
  let answer: Record<string, unknown> | undefined;
  const take = (json: string) => {
    const message = JSON.parse(json) as Record<string, unknown>;
    heard(message);
    if ('result' in message || 'error' in message) answer = message;
  };
  if (!response.headers.get('content-type')?.includes('text/event-stream')) take(await response.text());
  else {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        buffer = buffer.slice(end + 2);
        if (data) take(data);
        end = buffer.indexOf('\n\n');
      }
    }
  }
  if (answer?.result === undefined) throw new Error(`No result: ${JSON.stringify(answer)}`);
  return answer.result as Record<string, unknown>;
}

const ROUND_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/logLevel': 'info',
};

/** A fetch that sends each request to the replica `pick` chooses (by its count), recording which. */
function routed(replicas: () => readonly GatewayProcess[], pick: (index: number, body: string) => number) {
  const served: { method: string; replica: number }[] = [];
  let count = 0;
  const route = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const method = /"method":"([^"]+)"/.exec(body)?.[1] ?? init?.method ?? 'GET';
    const replica = pick(count++, body);
    served.push({ method, replica });
    const url = new URL(String(input instanceof Request ? input.url : input));
    const target = new URL(replicas()[replica]!.url);
    url.protocol = target.protocol;
    url.host = target.host;
    return fetch(url, init);
  };
  return { fetch: route as typeof fetch, served };
}

describe('a fleet of gateways in front of a 2025 upstream', () => {
  let redis: RedisServer;
  let upstream: Upstream;
  const replicas: GatewayProcess[] = [];
  const start = (name: string) =>
    startGatewayProcess({
      config: {
        upstreams: { desk: { url: upstream.url, era: '2025-11-25' } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: references the gateway reads from its environment
        fleet: { redis: '${REDIS_URL}', replica: name, stateKeys: '${PARLEY_STATE_KEYS}' },
      },
      env: { REDIS_URL: redis.url, PARLEY_STATE_KEYS: STATE_KEYS },
    });
  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream('parley-upstream.mjs', 'http');
    replicas.push(...(await Promise.all([start('gw1'), start('gw2')])));
  });
  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await upstream?.stop();
    await redis?.stop();
  });

  it("completes a 2026-07-28 host's call whose rounds alternate between the replicas", async () => {
    const across = routed(
      () => replicas,
      (index) => index % 2,
    );
    const ui = scripted({ boxes: { boxes: 2 }, day: { value: '2026-12-24' } });
    const client = await connect(replicas[0]!.url, { ui, era: 'modern', fetch: across.fetch });
    try {
      expect(textOf(await client.callTool('book'))).toBe('Booked P-2-2026-12-24: 2 box(es) on 2026-12-24.');
      expect(ui.asked.map((question) => question.message)).toEqual([
        'The desk asks: How many boxes?',
        'The desk asks: Which day?',
      ]);
      // The call was held where its first round went; the next round went to the other replica.
      const rounds = across.served.filter((request) => request.method === 'tools/call');
      expect(rounds.map((round) => round.replica)).toEqual([1, 0, 1]);
    } finally {
      await client.close();
    }
  });

  it('tells the host which replica held its call when that replica was killed', async () => {
    const victim = await start('gw3');
    const all = [...replicas, victim];
    let rounds = 0;
    const across = routed(
      () => all,
      (_index, body) => (body.includes('"tools/call"') && rounds++ === 0 ? 2 : 0),
    );
    const script = scripted({ boxes: { boxes: 1 } });
    const ui: ElicitationUI = {
      ...script,
      // The person answers only after the replica holding the call died.
      async form(question, context) {
        await victim.kill();
        return script.form(question, context);
      },
    };
    const client = await connect(replicas[0]!.url, { ui, era: 'modern', fetch: across.fetch });
    try {
      const result = await client.callTool('book');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'The gateway replica gw3 that held this call is gone (it stopped, or lost its connection to the fleet), and the upstream call with it; call again to start over.',
      );
      expect(
        across.served.filter((request) => request.method === 'tools/call').map((r) => r.replica),
      ).toEqual([2, 0]);
      // Calling again starts over on a replica that is there.
      const again = routed(
        () => replicas,
        (index) => index % 2,
      );
      const second = await connect(replicas[0]!.url, {
        ui: scripted({ boxes: { boxes: 3 }, day: { value: '2027-01-05' } }),
        era: 'modern',
        fetch: again.fetch,
      });
      expect(textOf(await second.callTool('book'))).toBe('Booked P-3-2027-01-05: 3 box(es) on 2027-01-05.');
      await second.close();
    } finally {
      await client.close();
    }
  });

  it('answers a question page opened through one replica, for a call another replica holds', async () => {
    // The host shows no questions: each round's question is a page link in the result. Its first
    // call is held on gw1; it calls again through gw2.
    let callsSent = 0;
    const calls = routed(
      () => replicas,
      (_index, body) => (body.includes('"tools/call"') && callsSent++ > 0 ? 1 : 0),
    );
    const client = await connect(replicas[0]!.url, {
      ui: scripted({}, { modes: { form: false, url: false } }),
      era: 'modern',
      fetch: calls.fetch,
    });
    // The person's browser reaches the other replica.
    const browser = routed(
      () => replicas,
      () => 1,
    );
    const person = questionPagePerson({ fetch: browser.fetch });
    try {
      const first = await client.callTool('book');
      const [boxes] = (first._meta?.['dev.parley/pages'] ?? []) as { url: string }[];
      expect(await person.answer(boxes!.url, { action: 'accept', content: { boxes: 2 } })).toBe(true);
      const second = await client.callTool('book');
      const [day] = (second._meta?.['dev.parley/pages'] ?? []) as { url: string }[];
      expect(await person.answer(day!.url, { action: 'accept', content: { value: '2027-02-01' } })).toBe(
        true,
      );
      expect(textOf(await client.callTool('book'))).toBe('Booked P-2-2027-02-01: 2 box(es) on 2027-02-01.');
      expect(new Set(browser.served.map((request) => request.replica))).toEqual(new Set([1]));
      expect(calls.served.filter((r) => r.method === 'tools/call').map((r) => r.replica)).toEqual([0, 1, 1]);
    } finally {
      await client.close();
    }
  });

  it("serves a 2025 host's session through either replica", async () => {
    const across = routed(
      () => replicas,
      (index) => index % 2,
    );
    const client = await connect(replicas[0]!.url, {
      ui: scripted({ boxes: { boxes: 3 }, day: { value: '2026-11-30' } }),
      era: 'handshake',
      fetch: across.fetch,
    });
    try {
      expect(textOf(await client.callTool('book'))).toBe('Booked P-3-2026-11-30: 3 box(es) on 2026-11-30.');
      expect(new Set(across.served.map((request) => request.replica))).toEqual(new Set([0, 1]));
    } finally {
      await client.close();
    }
  });

  it("passes the upstream's progress and logs to the host on the replica that serves its round, not the one holding the call", async () => {
    const [holder, serving] = [replicas[0]!, replicas[1]!];
    const first = await callRound(holder.url, { name: 'work', _meta: ROUND_META });
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { steps: expect.any(Object) },
    });
    const heard: Record<string, unknown>[] = [];
    const done = await callRound(
      serving.url,
      {
        name: 'work',
        inputResponses: { steps: { action: 'accept', content: { steps: 3 } } },
        requestState: first.requestState,
        _meta: { ...ROUND_META, progressToken: 'round-2' },
      },
      (message) => heard.push(message),
    );
    expect(textOf(done)).toBe('Worked 3 steps.');
    const notes = heard.filter((message) => 'method' in message);
    expect(
      notes.filter((note) => note.method === 'notifications/progress').map((note) => note.params),
    ).toEqual(
      [1, 2, 3].map((step) => ({
        progressToken: 'round-2',
        progress: step,
        total: 3,
        message: `step ${step}`,
      })),
    );
    expect(
      notes
        .filter((note) => note.method === 'notifications/message')
        .map((note) => (note.params as { data: unknown }).data),
    ).toEqual(['did step 1', 'did step 2', 'did step 3']);
    // ...and all before the round's result.
    expect(heard.at(-1)).toHaveProperty('result');
  });

  it('cancels the upstream call held on one replica when its host cancels the round on another', async () => {
    const [holder, serving] = [replicas[0]!, replicas[1]!];
    const cancelledBefore = upstream.stderr().split('cancelled work').length - 1;
    const first = await callRound(holder.url, { name: 'work', arguments: { hang: true }, _meta: ROUND_META });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const second = {
      name: 'work',
      arguments: { hang: true },
      inputResponses: { steps: { action: 'accept', content: { steps: 2 } } },
      requestState: first.requestState,
      _meta: { ...ROUND_META, progressToken: 'round-2' },
    };
    // The host gives up once the work is under way: it closes its request to the replica it is on.
    const stop = new AbortController();
    const progress: unknown[] = [];
    const round = callRound(
      serving.url,
      second,
      (message) => {
        if (message.method !== 'notifications/progress') return;
        progress.push(message.params);
        if (progress.length === 2) stop.abort();
      },
      stop.signal,
    );
    await expect(round).rejects.toThrow();
    expect(progress).toHaveLength(2);
    // The replica holding the call cancelled it upstream...
    await expect.poll(() => upstream.stderr().split('cancelled work').length - 1).toBe(cancelledBefore + 1);
    // ...because of that cancel: the same round sent again is told how the call ended.
    const again = await callRound(serving.url, second);
    expect(again.isError).toBe(true);
    expect(textOf(again)).toBe(
      'The upstream call held by gateway replica gw1 failed (Error: the host cancelled the call (on another gateway replica)); call again to start over.',
    );
  });

  it('drops and logs what is not one of its messages on the bus, and goes on', async () => {
    const publisher = new Redis(redis.url);
    try {
      const [channel] = await publisher.pubsub('CHANNELS', 'parley:gateway:live:gw1-*');
      expect(channel).toMatch(/^parley:gateway:live:gw1-[0-9a-f-]{36}$/);
      // A resume as anyone on Redis could write one, unsealed.
      await publisher.publish(channel as string, '{"t":"resume","id":"x","from":"gw2-1"}');
      await expect
        .poll(() => replicas[0]!.stderr())
        .toContain(
          'warn: Dropped a message that is not sealed for the gateway fleet bus on the gateway fleet bus.',
        );
    } finally {
      await publisher.quit();
    }
    const across = routed(
      () => replicas,
      (index) => (index + 1) % 2,
    );
    const client = await connect(replicas[0]!.url, {
      ui: scripted({ boxes: { boxes: 1 }, day: { value: '2026-10-01' } }),
      era: 'modern',
      fetch: across.fetch,
    });
    expect(textOf(await client.callTool('book'))).toBe('Booked P-1-2026-10-01: 1 box(es) on 2026-10-01.');
    await client.close();
  });
});
