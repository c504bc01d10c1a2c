// What 2025-era session routing puts in Redis is sealed: two replicas in this process share a real
// redis-server through RedisSessionRouter, an SDK client's session requests all reach the replica
// that does not hold the session, and a raw Redis client reads every message and key meanwhile,
// then publishes forged, tampered and replayed messages of its own.
import { createHash, randomBytes } from 'node:crypto';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ask, createServer, type Listening } from '@parley/server';
import { RedisSessionRouter } from '@parley/server/redis';
import { startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ANSWER = 'the-answer-Zq81x';
const TOKEN = 'tok-Vb72kLm';
const secret = () => randomBytes(32).toString('base64');

interface Replica {
  readonly listening: Listening;
  readonly router: RedisSessionRouter;
  readonly redis: Redis;
  readonly logs: string[];
  readonly ticks: { count: number };
}

let redis: Awaited<ReturnType<typeof startRedis>>;
const replicas: Replica[] = [];
const clients: Client[] = [];
const raw: Redis[] = [];

/** A router whose Redis is slow to record a session opened here (as under load, or far away). */
class SlowRecordingRouter extends RedisSessionRouter {
  override async opened(...args: Parameters<RedisSessionRouter['opened']>): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return super.opened(...args);
  }
}

/** A router whose record of a session opened here never comes (its Redis hangs). */
class HangingRecordRouter extends RedisSessionRouter {
  override opened(): Promise<void> {
    return new Promise(() => {});
  }
}

async function startReplica(
  name: string,
  keys: string,
  records: 'prompt' | 'slow' | 'hanging' = 'prompt',
): Promise<Replica> {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  const Router =
    records === 'slow'
      ? SlowRecordingRouter
      : records === 'hanging'
        ? HangingRecordRouter
        : RedisSessionRouter;
  const router = new Router(client, { name });
  const logs: string[] = [];
  const ticks = { count: 0 };
  const server = createServer({
    name: 'sealed-fleet',
    version: '1.0.0',
    state: { keys },
    sessions: { router },
    log: (level, message) => logs.push(`${level}: ${message}`),
  });
  server.tool('ask', {}, async (_args, ctx) => {
    const said = await ctx.elicit('What is the word?', ask.text(), { key: 'word' });
    return said.action === 'accept' ? `Got ${said.value}` : 'Nothing';
  });
  server.tool('tick', {}, async () => `tick ${++ticks.count}`);
  const replica = { listening: await server.listen({ port: 0 }), router, redis: client, logs, ticks };
  replicas.push(replica);
  return replica;
}

/** A 2025-era SDK client whose `initialize` goes to `owner` and every later request to `other`. */
async function connectAcross(owner: Replica, other: Replica) {
  const fetchAcross = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const session = new Headers(init?.headers).has('mcp-session-id');
    return fetch((session ? other : owner).listening.url, init);
  };
  const client = new Client(
    { name: 'sealed-fleet-e2e', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { value: ANSWER } }));
  const transport = new StreamableHTTPClientTransport(new URL(owner.listening.url), {
    fetch: fetchAcross,
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  clients.push(client);
  const call = async (name: string) =>
    ((await client.callTool({ name, arguments: {} })) as CallToolResult).content[0] as { text: string };
  return { client, transport, call };
}

/** A raw Redis client reading every message the replicas publish. */
async function listenRaw(): Promise<{ readonly messages: { channel: string; text: string }[] }> {
  const listener = new Redis(redis.url);
  raw.push(listener);
  const messages: { channel: string; text: string }[] = [];
  listener.on('pmessage', (_pattern: string, channel: string, text: string) =>
    messages.push({ channel, text }),
  );
  await listener.psubscribe('parley:session:*');
  return { messages };
}

/** Every key in Redis with its value (the values that are strings). */
async function everything(): Promise<string> {
  const client = new Redis(redis.url);
  try {
    const keys = await client.keys('*');
    const values = await Promise.all(keys.map((key) => client.get(key).catch(() => '')));
    return keys.map((key, index) => `${key}=${values[index]}`).join('\n');
  } finally {
    client.disconnect();
  }
}

const channelOf = (replica: Replica) => `parley:session:to:${replica.router.replicaId}`;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  const stopping = replicas.splice(0);
  await Promise.allSettled(stopping.map((replica) => replica.listening.close()));
  for (const replica of stopping) replica.redis.disconnect();
  for (const listener of raw.splice(0)) listener.disconnect();
});
afterAll(async () => {
  await redis?.stop();
});

describe('2025-era sessions across replicas, sealed on Redis', () => {
  it('pass a question and its answer between replicas with nothing readable in Redis', async () => {
    const keys = `k1:${secret()}`;
    const [a, b] = [await startReplica('a', keys), await startReplica('b', keys)];
    const bus = await listenRaw();
    const across = await connectAcross(a!, b!);
    expect((await across.call('ask')).text).toBe(`Got ${ANSWER}`);
    expect((await across.call('tick')).text).toBe('tick 1');
    const sessionId = across.transport.sessionId!;
    expect(sessionId).toBeTruthy();
    // Requests went b -> a, their responses (the question streamed, then the result) a -> b.
    expect(bus.messages.some(({ channel }) => channel === channelOf(a!))).toBe(true);
    expect(bus.messages.some(({ channel }) => channel === channelOf(b!))).toBe(true);
    const published = bus.messages.map(({ text }) => text).join('\n');
    const stored = await everything();
    for (const seen of [published, stored]) {
      for (const clear of [ANSWER, TOKEN, sessionId, 'What is the word?', 'authorization', 'elicitation'])
        expect(seen).not.toContain(clear);
    }
    for (const { text } of bus.messages) expect(text).toMatch(/^ps1\.(req|cancel|head|data|end|fail)\./);
    expect(a!.router.dropped + b!.router.dropped).toBe(0);
  });

  it('drop forged, unsealed, tampered and replayed messages, log why without what, and serve on', async () => {
    const keys = `k1:${secret()}`;
    const [a, b] = [await startReplica('a', keys), await startReplica('b', keys)];
    const bus = await listenRaw();
    const across = await connectAcross(a!, b!);
    expect((await across.call('tick')).text).toBe('tick 1');
    const sessionId = across.transport.sessionId!;
    const publisher = new Redis(redis.url);
    raw.push(publisher);
    const tickRequests = bus.messages.filter(
      ({ channel, text }) => channel === channelOf(a!) && text.startsWith('ps1.req.'),
    );
    const captured = tickRequests.at(-1)!.text;

    // Unsealed: the pre-seal wire format, a tools/call into the session, credentials and all.
    const forged = JSON.stringify({
      t: 'req',
      id: 'forged-1',
      from: b!.router.replicaId,
      method: 'POST',
      url: a!.listening.url,
      headers: [
        ['content-type', 'application/json'],
        ['accept', 'application/json, text/event-stream'],
        ['mcp-session-id', sessionId],
        ['mcp-protocol-version', '2025-11-25'],
        ['authorization', `Bearer FORGED-${TOKEN}`],
      ],
      body: Buffer.from(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 99,
          method: 'tools/call',
          params: { name: 'tick', arguments: {} },
        }),
      ).toString('base64'),
      until: Date.now() + 10_000,
    });
    await publisher.publish(channelOf(a!), forged);
    await expect.poll(() => a!.router.dropped).toBe(1);
    // Sealed with other keys (a replica of another fleet, or someone who guessed the format).
    const token = Buffer.from(forged).toString('base64url');
    await publisher.publish(channelOf(a!), `ps1.req.forged-2.${b!.router.replicaId}.${token}`);
    // Tampered: one character of a real request's ciphertext changed.
    const at = captured.length - 20;
    const tampered = `${captured.slice(0, at)}${captured[at] === 'A' ? 'B' : 'A'}${captured.slice(at + 1)}`;
    await publisher.publish(channelOf(a!), tampered);
    // Replayed: a real request (the tick) published again, byte for byte.
    await publisher.publish(channelOf(a!), captured);
    // Copied to another replica's channel.
    await publisher.publish(channelOf(b!), captured);
    await expect.poll(() => a!.router.dropped).toBe(4);
    await expect.poll(() => b!.router.dropped).toBe(1);

    expect(a!.ticks.count).toBe(1);
    expect(a!.logs.filter((line) => line.includes('Dropped'))).toEqual([
      'warn: Dropped a message that is not sealed for the session bus on the session bus.',
    ]);
    expect(b!.logs.filter((line) => line.includes('Dropped'))).toEqual([
      'warn: Dropped a message that does not open with the fleet keys (forged, altered, or meant for another replica) on the session bus.',
    ]);
    for (const line of [...a!.logs, ...b!.logs]) {
      for (const clear of [TOKEN, sessionId, 'tools/call', 'forged-1']) expect(line).not.toContain(clear);
    }
    // The session goes on: the next call through the other replica is served once.
    expect((await across.call('tick')).text).toBe('tick 2');
    expect(a!.ticks.count).toBe(2);
  });

  it('records a session before its initialize is answered, so the next request finds it on another replica', async () => {
    const keys = `k1:${secret()}`;
    const [a, b] = [await startReplica('a', keys, 'slow'), await startReplica('b', keys)];
    // notifications/initialized goes to b at once: a 404 there (the record not written yet) fails the connect.
    const across = await connectAcross(a!, b!);
    expect((await across.call('tick')).text).toBe('tick 1');
    expect(a!.ticks.count).toBe(1);
  });

  it('answers an initialize after a second when the record hangs, and serves the session where it is', async () => {
    const a = await startReplica('a', `k1:${secret()}`, 'hanging');
    const here = await connectAcross(a, a);
    expect((await here.call('tick')).text).toBe('tick 1');
  });

  it('a replay is refused as a copy, and the reason it was dropped is logged', async () => {
    const keys = `k1:${secret()}`;
    const [a, b] = [await startReplica('a', keys), await startReplica('b', keys)];
    const bus = await listenRaw();
    const across = await connectAcross(a!, b!);
    expect((await across.call('tick')).text).toBe('tick 1');
    const captured = bus.messages.filter(
      ({ channel, text }) => channel === channelOf(a!) && text.startsWith('ps1.req.'),
    );
    const publisher = new Redis(redis.url);
    raw.push(publisher);
    await publisher.publish(channelOf(a!), captured.at(-1)!.text);
    await expect.poll(() => a!.router.dropped).toBe(1);
    expect(a!.logs.filter((line) => line.includes('Dropped'))).toEqual([
      'warn: Dropped a copy of a request already acted on (replayed) on the session bus.',
    ]);
    expect(a!.ticks.count).toBe(1);
  });

  it('a record forged to send a session to another replica does not open, and redirects nothing', async () => {
    const keys = `k1:${secret()}`;
    const [a, b] = [await startReplica('a', keys), await startReplica('b', keys)];
    const across = await connectAcross(a!, b!);
    expect((await across.call('tick')).text).toBe('tick 1');
    const client = new Redis(redis.url);
    raw.push(client);
    const sessionId = across.transport.sessionId!;
    const key = `parley:session:s:${createHash('sha256').update(sessionId).digest('base64url')}`;
    expect(await client.exists(key)).toBe(1);
    const bus = await listenRaw();
    // Whoever writes to Redis points the session at a replica of their own (that listens, and is "alive").
    const rogue = new Redis(redis.url);
    raw.push(rogue);
    await rogue.subscribe('parley:session:to:rogue-1');
    await client.set('parley:session:alive:rogue-1', '1');
    await client.set(
      key!,
      JSON.stringify({ id: across.transport.sessionId, owner: 'rogue-1', principal: null }),
    );
    const refused = await across.call('tick').then(
      () => 'served',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/Session not found/);
    expect(bus.messages.filter(({ channel }) => channel === 'parley:session:to:rogue-1')).toEqual([]);
    expect(b!.logs.filter((line) => line.includes('Dropped'))).toEqual([
      'warn: Dropped a session record that is not sealed on the session bus.',
    ]);
  });

  it('replicas with different keys cannot pass each other a session, and say why', async () => {
    const [a, b] = [await startReplica('a', `k1:${secret()}`), await startReplica('b', `k2:${secret()}`)];
    // The client's first request after initialize (notifications/initialized) already reaches b.
    await expect(connectAcross(a!, b!)).rejects.toThrow(/Session not found/);
    expect(b!.logs.filter((line) => line.includes('Dropped'))).toEqual([
      'warn: Dropped a session record sealed with a key this replica does not have (are stateKeys / PARLEY_STATE_KEYS the same on every replica?) on the session bus.',
    ]);
    expect(a!.router.inFlight).toBe(0);
  });

  it('a server without shared keys refuses the router, naming the fix', async () => {
    const saved = process.env.PARLEY_STATE_KEYS;
    delete process.env.PARLEY_STATE_KEYS;
    const client = new Redis(redis.url);
    raw.push(client);
    try {
      const server = createServer({
        name: 'no-keys',
        version: '1.0.0',
        sessions: { router: new RedisSessionRouter(client) },
      });
      await expect(server.listen({ port: 0 })).rejects.toThrow(
        /Set stateKeys \(createServer\(\{ state: \{ keys \} \}\)\) or PARLEY_STATE_KEYS to the same value on every replica/,
      );
    } finally {
      if (saved !== undefined) process.env.PARLEY_STATE_KEYS = saved;
    }
  });
});
