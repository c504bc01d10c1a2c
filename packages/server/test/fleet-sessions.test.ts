// 2025-era sessions served by any replica (issue 18): two real fixture processes share a real
// redis-server through RedisSessionRouter, and the official SDK client's requests are sent to a
// replica other than the one holding the session.
import {
  type CallToolResult,
  Client,
  type ElicitRequest,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { SETTLE_TIMEOUT_MS, startRedis } from '@parley/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyRing, newSecret } from './wire/fixture-env.js';
import { textOf } from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';

type Routing = 'alternate' | 'away-from-owner';

/** A 2025-era SDK client whose requests go to replicas chosen by `routing`, not by the session. */
async function connectAcross(
  replicas: readonly HttpFixture[],
  routing: Routing,
  answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>,
) {
  const served: { method: string; replica: number; session: boolean }[] = [];
  let next = 0;
  let owner: number | undefined;
  const fetchAcross = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const session = headers.has('mcp-session-id');
    const replica =
      routing === 'alternate' || owner === undefined
        ? next++ % replicas.length
        : (owner + 1) % replicas.length;
    if (!session && owner === undefined) owner = replica;
    served.push({ method: init?.method ?? 'GET', replica, session });
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(replicas[replica]!.url.replace(/\/mcp$/, url.pathname), init);
  };
  const client = new Client(
    { name: 'fleet-sessions-e2e', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler('elicitation/create', (request) => answer(request));
  const transport = new StreamableHTTPClientTransport(new URL(replicas[0]!.url), {
    fetch: fetchAcross,
    requestInit: { headers: { authorization: 'Bearer alice' } },
  });
  await client.connect(transport);
  return {
    client,
    transport,
    served,
    callTool: async (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
      (await client.callTool({ name, arguments: args }, { ...(signal && { signal }) })) as CallToolResult,
  };
}

const countersOf = async (connection: Awaited<ReturnType<typeof connectAcross>>) =>
  JSON.parse(textOf(await connection.callTool('counters'))) as { cancelled: number };

describe('2025-era sessions across replicas sharing Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let replicas: HttpFixture[] = [];
  const clients: Client[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    replicas = [];
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const startReplicas = async () => {
    // One key ring for the fleet: the replicas seal what they pass each other with it.
    const keys = keyRing(['k1', newSecret()]);
    const env = (name: string) => ({
      PARLEY_FIXTURE_SESSIONS: redis.url,
      PARLEY_FIXTURE_REPLICA: name,
      PARLEY_STATE_KEYS: keys,
    });
    replicas = await Promise.all([startHttpFixture(env('a')), startHttpFixture(env('b'))]);
    return replicas;
  };

  it('completes a multi-question call whose requests alternate between the replicas', async () => {
    const across = await connectAcross(await startReplicas(), 'alternate', (request) => ({
      action: 'accept',
      content: { value: `answer to ${request.params.message}` },
    }));
    clients.push(across.client);
    const result = await across.callTool('quiz', { questions: 3 });
    expect(textOf(result)).toBe(
      'Answers: answer to Question 1?, answer to Question 2?, answer to Question 3?',
    );
    expect(across.transport.sessionId).toMatch(/^a\.[0-9a-f-]{36}$/); // the replica that opened it
    const withSession = across.served.filter((request) => request.session);
    expect(new Set(withSession.map((request) => request.replica))).toEqual(new Set([0, 1]));
    expect(withSession.length).toBeGreaterThanOrEqual(5);
  });

  it('passes a cancellation and a DELETE to the replica holding the session', async () => {
    const abort = new AbortController();
    let asked!: () => void;
    const question = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const across = await connectAcross(await startReplicas(), 'away-from-owner', () => {
      asked();
      return new Promise<ElicitResult>(() => {}); // the person never answers
    });
    clients.push(across.client);
    const call = across.callTool('cancellable', {}, abort.signal);
    await question;
    abort.abort('the person closed the dialog');
    await expect(call).rejects.toThrow();
    // notifications/cancelled went to the other replica and reached the handler on the owner.
    await expect
      .poll(async () => (await countersOf(across)).cancelled, { timeout: SETTLE_TIMEOUT_MS })
      .toBe(1);
    expect(across.served.filter((r) => r.session).every((r) => r.replica === 1)).toBe(true);

    const sessionId = across.transport.sessionId!;
    await across.transport.terminateSession();
    expect(across.served.at(-1)).toMatchObject({ method: 'DELETE', replica: 1 });
    const owner = await fetch(replicas[0]!.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer alice',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(owner.status).toBe(404);
  });

  it("refuses another user's session on the replica that does not hold it", async () => {
    const [a, b] = await startReplicas();
    const across = await connectAcross([a!, b!], 'away-from-owner', () => ({ action: 'decline' }));
    clients.push(across.client);
    await across.callTool('counters');
    const response = await fetch(b!.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer mallory',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': across.transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001 } });
  });

  it('ends the call with a clear error when the replica holding the session dies, and a new session works', async () => {
    const [a, b] = await startReplicas();
    let killed: Promise<void> | undefined;
    const across = await connectAcross([a!, b!], 'away-from-owner', () => {
      killed ??= a!.kill();
      return new Promise<ElicitResult>(() => {});
    });
    clients.push(across.client);
    const started = Date.now();
    const failure = await across.callTool('quiz', { questions: 2 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await killed;
    expect(Date.now() - started).toBeLessThan(30_000); // it ends (the person never answers), on any load
    expect(String(failure)).toMatch(/stopped.*Start a new session with initialize/);
    // The session is gone everywhere: the next request says so (404), so the client starts again.
    const response = await fetch(b!.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer alice',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': across.transport.sessionId!,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: -32001, message: expect.stringMatching(/stopped; start a new session/) },
    });
    const again = await connectAcross([b!], 'alternate', (request) => ({
      action: 'accept',
      content: { value: String(request.params.message.length) },
    }));
    clients.push(again.client);
    expect(textOf(await again.callTool('quiz', { questions: 1 }))).toBe('Answers: 11');
  });
});
