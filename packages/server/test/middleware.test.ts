// server.use(): the chain around every request, on every round of both eras, driven over real HTTP.
import { ask, createServer, type Middleware, type RequestContext } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, type HandshakeConnection, textOf } from './wire/handshake-client.js';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { callTool } from './wire/modern-envelope.js';
import { accept, errorOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';

type Seen = Pick<RequestContext, 'method' | 'name' | 'era' | 'round' | 'firstRound' | 'asked' | 'outcome'> & {
  user: string | undefined;
  answered: string[];
};

/** A snapshot of what middleware could read once `next()` returned. */
const seen = (c: RequestContext): Seen => ({
  method: c.method,
  name: c.name,
  era: c.era,
  round: c.round,
  firstRound: c.firstRound,
  asked: [...c.asked],
  outcome: c.outcome,
  user: c.user?.id,
  answered: c.answered.map((answer) => `${answer.key}:${answer.action}`),
});

describe('server.use() middleware', () => {
  const records: Seen[] = [];
  const order: string[] = [];
  const errors: string[] = [];
  const cache = new Map<string, RequestContext['result']>();
  let served: InProcess;
  let handshake: HandshakeConnection;

  beforeAll(async () => {
    const server = createServer({ name: 'middleware-test', version: '1.0.0', log: () => {} });
    const record: Middleware = async (c, next) => {
      order.push('outer:before');
      try {
        await next();
      } finally {
        order.push('outer:after');
        records.push(seen(c));
      }
    };
    const inner: Middleware = async (_c, next) => {
      order.push('inner:before');
      await next();
      order.push('inner:after');
    };
    const reportErrors: Middleware = async (c, next) => {
      try {
        await next();
      } catch (error) {
        errors.push(`${c.name}: ${(error as Error).message}`);
        throw error;
      }
    };
    /** Caches every result of `cached_*` tools, questions included: the server must refuse the latter. */
    const careless: Middleware = async (c, next) => {
      if (!c.name?.startsWith('cached_')) return next();
      const hit = cache.get(c.name);
      if (hit) {
        c.result = hit;
        return;
      }
      await next();
      cache.set(c.name, c.result);
    };
    server.use(record, inner, reportErrors, careless);
    server.tool('boxes', {}, async (_args, ctx) => {
      const boxes = await ctx.elicit('How many boxes?', ask.integer({ min: 1, max: 3 }));
      if (boxes.action !== 'accept') return 'No boxes.';
      if (boxes.value === 3) throw new Error('three is too many');
      return `Booked ${boxes.value}.`;
    });
    server.tool('cached_time', {}, async () => `It is ${Date.now()}.`);
    server.tool('cached_question', {}, async (_args, ctx) => {
      const name = await ctx.elicit('Your name?', ask.text());
      return name.action === 'accept' ? `Hi ${name.value}` : 'Hi';
    });
    served = await serveInProcess(server);
    handshake = await connectHandshake(
      { url: served.url, user: 'bob' },
      {
        capabilities: { elicitation: { form: {} } },
        answer: () => ({ action: 'accept', content: { value: 2 } }),
      },
    );
  });
  afterAll(async () => {
    await handshake?.close();
    await served?.close();
  });

  it('runs around every round of a 2026-07-28 call, with the round facts', async () => {
    records.length = 0;
    order.length = 0;
    const first = inputRequiredOf(await callTool(served.wire, 'boxes', {}, {}, { user: 'alice' }));
    const done = toolResultOf(
      await callTool(
        served.wire,
        'boxes',
        {},
        { requestState: first.requestState, inputResponses: { q1: accept(2) } },
        { user: 'alice' },
      ),
    );
    expect(done.text).toBe('Booked 2.');
    const onion = ['outer:before', 'inner:before', 'inner:after', 'outer:after'];
    expect(order).toEqual([...onion, ...onion]);
    expect(records).toEqual([
      {
        method: 'tools/call',
        name: 'boxes',
        era: 'modern',
        round: 1,
        firstRound: true,
        asked: ['q1'],
        outcome: { type: 'ask', keys: ['q1'] },
        user: 'alice',
        answered: [],
      },
      {
        method: 'tools/call',
        name: 'boxes',
        era: 'modern',
        round: 2,
        firstRound: false,
        asked: [],
        outcome: { type: 'complete' },
        user: 'alice',
        answered: ['q1:accept'],
      },
    ]);
  });

  it('runs around list requests', async () => {
    records.length = 0;
    const listed = await served.wire.request('tools/list', {});
    expect(listed.message.result?.tools).toHaveLength(3);
    expect(records).toMatchObject([
      { method: 'tools/list', name: undefined, round: 1, outcome: { type: 'complete' } },
    ]);
  });

  it('error middleware sees the failure and never the ask before it', async () => {
    errors.length = 0;
    const first = inputRequiredOf(await callTool(served.wire, 'boxes', {}));
    expect(errors).toEqual([]);
    const failed = toolResultOf(
      await callTool(
        served.wire,
        'boxes',
        {},
        { requestState: first.requestState, inputResponses: { q1: accept(3) } },
      ),
    );
    expect(failed.isError).toBe(true);
    expect(errors).toEqual(['boxes: three is too many']);
  });

  it('a refused state reaches error middleware as the frozen -32602, with no round', async () => {
    errors.length = 0;
    records.length = 0;
    errorOf(
      await callTool(served.wire, 'boxes', {}, { requestState: 'forged', inputResponses: { q1: accept(1) } }),
      -32602,
    );
    expect(errors).toEqual(['boxes: Invalid or expired requestState']);
    expect(records[0]).toMatchObject({ firstRound: false, round: undefined, outcome: undefined });
  });

  it('answers from a cache, but never lets a cached question out', async () => {
    const once = toolResultOf(await callTool(served.wire, 'cached_time', {}));
    const again = toolResultOf(await callTool(served.wire, 'cached_time', {}));
    expect(again.text).toBe(once.text);

    inputRequiredOf(await callTool(served.wire, 'cached_question', {}));
    const replayed = toolResultOf(await callTool(served.wire, 'cached_question', {}));
    expect(replayed.isError).toBe(true);
    expect(replayed.text).toContain('cache only results whose c.outcome.type is "complete"');
  });

  it('runs once around a handshake-era call, which asks over the session', async () => {
    records.length = 0;
    const result = await handshake.callTool('boxes', {});
    expect(textOf(result)).toBe('Booked 2.');
    expect(records).toEqual([
      {
        method: 'tools/call',
        name: 'boxes',
        era: 'handshake',
        round: 1,
        firstRound: true,
        asked: ['q1'],
        outcome: { type: 'complete' },
        user: 'bob',
        answered: ['q1:accept'],
      },
    ]);
  });
});

describe('server.use() mistakes and timing', () => {
  const timings: { startedAt: number; elapsed: number; later: number }[] = [];
  let served: InProcess;

  beforeAll(async () => {
    const server = createServer({ name: 'middleware-mistakes', version: '1.0.0', log: () => {} });
    server.use(async (c, next) => {
      const { elapsedMs, startedAt } = c;
      await next();
      const elapsed = elapsedMs();
      await new Promise((resolve) => setTimeout(resolve, 20));
      timings.push({ startedAt, elapsed, later: elapsedMs() });
    });
    server.use(async (c, next) => {
      if (c.name === 'next_twice') {
        await next();
        await next();
      } else if (c.name !== 'no_result') await next();
    });
    server.tool('next_twice', {}, async () => 'once');
    server.tool('no_result', {}, async () => 'never');
    server.tool('fine', {}, async () => 'fine');
    served = await serveInProcess(server);
  });
  afterAll(async () => {
    await served?.close();
  });

  it('tells the author who called next() twice, or returned without a result, what to do', async () => {
    const twice = toolResultOf(await callTool(served.wire, 'next_twice', {}));
    expect(twice.isError).toBe(true);
    expect(twice.text).toContain(
      'A middleware called next() twice; call it once (await next()) or not at all.',
    );
    const none = toolResultOf(await callTool(served.wire, 'no_result', {}));
    expect(none.isError).toBe(true);
    expect(none.text).toContain('The middleware chain ended without a result');
    expect(toolResultOf(await callTool(served.wire, 'fine', {})).text).toBe('fine');
  });

  it('gives each request its start and a clock that keeps running, even taken apart', async () => {
    timings.length = 0;
    const before = Date.now();
    toolResultOf(await callTool(served.wire, 'fine', {}));
    await expect.poll(() => timings.length).toBe(1);
    const [timing] = timings;
    expect(timing!.startedAt).toBeGreaterThanOrEqual(before);
    expect(timing!.elapsed).toBeGreaterThanOrEqual(0);
    expect(timing!.later).toBeGreaterThanOrEqual(timing!.elapsed + 15);
  });
});
