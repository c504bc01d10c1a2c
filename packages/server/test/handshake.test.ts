// The 2025 eras: the same handlers, but each question is a real elicitation/create request over the
// session (stdio, or Streamable HTTP with Mcp-Session-Id) and the handler simply waits for it.
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ClientCapabilities,
  ElicitRequest,
  ElicitResult,
  JSONRPCRequest,
} from '@modelcontextprotocol/client';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureEnv } from './wire/fixture-env.js';
import {
  connectHandshake,
  type HandshakeConnection,
  type HandshakeOptions,
  type HandshakeTarget,
  textOf,
} from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import type { Transport } from './wire/start-modern.js';

const SETTINGS: FixtureEnv = { PARLEY_FIXTURE_MAX_ROUNDS: '4', PARLEY_FIXTURE_MAX_TRIES: '3' };
const IMPATIENT: FixtureEnv = { PARLEY_FIXTURE_QUESTION_TIMEOUT_MS: '300' };
const FORM = { elicitation: { form: {} } };

const accept = (value: unknown): ElicitResult => ({ action: 'accept', content: { value } as never });
const messageOf = (request: { params?: Record<string, unknown> }) => String(request.params?.message);

/** Answers the booking: boxes, then the pickup batch. */
const bookingAnswers = (request: ElicitRequest): ElicitResult => {
  const message = messageOf(request);
  if (message.endsWith('How many boxes?')) return accept(2);
  if (message === 'Pickup date?') return accept('2026-09-01');
  return accept('am');
};

describe.each([['stdio'], ['http']] as [Transport][])('2025 handshake era over %s', (transport) => {
  /** Over HTTP, one server process per settings, shared by the clients that use them. */
  const fixtures = new Map<FixtureEnv, Promise<HttpFixture>>();
  /** How the shared client answers; each test sets its own. */
  let answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult> = bookingAnswers;
  let client: HandshakeConnection;
  let impatient: HandshakeConnection;
  let oldest: HandshakeConnection;

  /** Connects a client; on stdio it spawns its own server process with `env`. */
  const connect = async (
    env: FixtureEnv,
    options: Omit<HandshakeOptions, 'capabilities'>,
    capabilities: ClientCapabilities = FORM,
  ) => {
    let target: HandshakeTarget = { stdio: env };
    if (transport === 'http') {
      if (!fixtures.has(env)) fixtures.set(env, startHttpFixture(env));
      target = { url: (await fixtures.get(env)!).url, user: 'alice' };
    }
    return connectHandshake(target, { capabilities, ...options });
  };

  beforeAll(async () => {
    [client, impatient, oldest] = await Promise.all([
      connect(SETTINGS, { answer: (request) => answer(request) }),
      connect(IMPATIENT, { answer: () => new Promise<ElicitResult>(() => {}) }),
      // The 2025-06-18 shape: a bare `elicitation: {}` means form.
      connect(SETTINGS, { answer: bookingAnswers, protocolVersion: '2025-06-18' }, { elicitation: {} }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([client, impatient, oldest].map((connection) => connection?.close().catch(() => {})));
    await Promise.all([...fixtures.values()].map(async (fixture) => (await fixture).stop()));
  });

  /** The requests the shared client receives while `run` runs. */
  async function asked<T>(run: () => Promise<T>): Promise<[T, JSONRPCRequest[]]> {
    const mark = client.received.length;
    const result = await run();
    return [result, client.received.slice(mark)];
  }
  const countersOf = async () =>
    JSON.parse(textOf(await client.callTool('counters'))) as { runs: Record<string, number>; labels: number };

  it('runs the same handler to its end with real elicitation/create requests; ctx.once runs once', async () => {
    answer = bookingAnswers;
    const before = await countersOf();
    const [result, requests] = await asked(() => client.callTool('book_return', { order: 'H-1' }));
    const after = await countersOf();
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      `Booked 2 box(es) for order H-1, label LBL-${before.labels + 1}, pickup 2026-09-01 am.`,
    );
    // No replay on this era: the handler ran once, and so did its side effect.
    expect((after.runs.book_return ?? 0) - (before.runs.book_return ?? 0)).toBe(1);
    expect(after.labels - before.labels).toBe(1);

    expect(requests.map((request) => request.method)).toEqual(Array(3).fill('elicitation/create'));
    const [boxes, ...pickup] = requests;
    expect(boxes!.params).toMatchObject({
      mode: 'form',
      message: 'How many boxes?',
      requestedSchema: {
        type: 'object',
        properties: { value: { type: 'integer', minimum: 1, maximum: 3 } },
        required: ['value'],
      },
    });
    expect(pickup.map(messageOf).sort()).toEqual(['Morning or afternoon?', 'Pickup date?']);
    expect(new Set(requests.map((request) => request.id)).size).toBe(3);
  });

  it('sends the questions of an elicitAll batch concurrently: both arrive before either is answered', async () => {
    const arrived = new Set<string>();
    let bothArrived: () => void = () => {};
    const both = new Promise<void>((resolve) => {
      bothArrived = resolve;
    });
    const sawBoth: boolean[] = [];
    answer = async (request) => {
      const message = messageOf(request);
      if (message === 'How many boxes?') return accept(1);
      arrived.add(message);
      if (arrived.size === 2) bothArrived();
      // Bounded, so asking one at a time (the second never comes while the first waits) fails here.
      await Promise.race([both, sleep(SETTLE_TIMEOUT_MS)]);
      sawBoth.push(arrived.size === 2);
      return bookingAnswers(request);
    };
    const result = await client.callTool('book_return', { order: 'H-2' });
    expect(textOf(result)).toMatch(/^Booked 1 box\(es\) for order H-2, /);
    expect(sawBoth).toEqual([true, true]);
  });

  it('hands decline and cancel to the handler as themselves', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      answer = () => ({ action });
      const result = await client.callTool('book_return', { order: 'H-3' });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(`No return booked (${action}).`);
    }
  });

  it('asks an invalid answer again with its reason, and ends the call after maxTries invalid answers', async () => {
    answer = (request) => (messageOf(request) === 'How many boxes?' ? accept(7) : bookingAnswers(request));
    const [booked, requests] = await asked(() => client.callTool('book_return', { order: 'H-4' }));
    expect(textOf(booked)).toMatch(/^Booked 2 box\(es\)/);
    const [first, second] = requests;
    expect(messageOf(first!)).toBe('How many boxes?');
    expect(messageOf(second!)).toMatch(
      /^That answer could not be used: .*between 1 and 3.*\n\nHow many boxes\?$/s,
    );
    expect(second!.params?.requestedSchema).toEqual(first!.params?.requestedSchema);

    answer = () => accept(0);
    const [ended, tries] = await asked(() => client.callTool('book_return', { order: 'H-5' }));
    expect(ended.isError).toBe(true);
    expect(textOf(ended)).toMatch(
      /^The answer was still not valid after 3 tries \(.+\)\. Call the tool again to start over\.$/,
    );
    expect(tries).toHaveLength(3);
  });

  it('has no replay, so a handler whose questions drift between runs still finishes', async () => {
    answer = () => accept(true);
    expect(textOf(await client.callTool('drifting'))).toBe('Ready: true');
  });

  it('caps questions per call with maxRounds, as on 2026-07-28: one at the cap finishes, one past it ends with the cap error', async () => {
    const asked: string[] = [];
    answer = (request) => {
      asked.push(messageOf(request));
      return accept(`a${/\d+/.exec(messageOf(request))?.[0]}`);
    };
    expect(textOf(await client.callTool('quiz', { questions: 4 }))).toBe('Answers: a1, a2, a3, a4');
    asked.length = 0;
    const stopped = await client.callTool('quiz', { questions: 6 });
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toBe(
      'This call needed more than 4 rounds of questions and was stopped. Ask several questions in one round ' +
        'with ctx.elicitAll() or ask.form(), or raise `maxRounds` in createServer().',
    );
    expect(asked).toEqual(['Question 1?', 'Question 2?', 'Question 3?', 'Question 4?']);
  });

  it('ends the call with a clear error when the person does not answer within questionTimeoutMs', async () => {
    const started = Date.now();
    const result = await impatient.callTool('pickup_date');
    expect(Date.now() - started).toBeLessThan(30_000); // not the 60 s request timeout, on any load
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'No answer came within 300 ms, so the call was stopped. Call the tool again.',
    );
    expect(impatient.received.map(messageOf)).toEqual(['Pickup date?']);
  });

  it('adapts questions for a 2025-06-18 client, and sends a multi-select to a page of the server', async () => {
    expect(textOf(await oldest.callTool('book_return', { order: 'H-6' }))).toMatch(/pickup 2026-09-01 am\.$/);
    const slot = oldest.received.find((request) => messageOf(request) === 'Morning or afternoon?');
    expect(slot?.params?.requestedSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'string', enum: ['am', 'pm'], enumNames: ['Morning', 'Afternoon'] } },
      required: ['value'],
    });

    const before = oldest.received.length;
    const onPage = await oldest.callTool('topics');
    if (transport === 'stdio') {
      // No user to check over stdio: whoever holds the link answers, and the call waits for it.
      expect(onPage.isError).toBeFalsy();
      expect(textOf(onPage)).toMatch(/Answer here: http:\/\/127\.0\.0\.1:\d+\/parley\/questions\//);
    } else {
      // The fixture's HTTP users sign in with a bearer token, and it has no way to check a browser's.
      expect(onPage.isError).toBe(true);
      expect(textOf(onPage)).toContain('set questionPages.person and questionPages.signIn');
    }
    expect(oldest.received).toHaveLength(before);
  });

  it('refuses a multi-select on 2025-06-18 with a clear message when question pages are off', async () => {
    const pagesOff = await connect(
      { ...SETTINGS, PARLEY_FIXTURE_QUESTION_PAGES: 'off' },
      { answer: bookingAnswers, protocolVersion: '2025-06-18' },
      { elicitation: {} },
    );
    try {
      const refused = await pagesOff.callTool('topics');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'This question cannot be asked on protocol 2025-06-18: 2025-06-18 clients cannot answer a multi-select; ' +
          'ask with ask.choice() or several boolean fields for these clients',
      );
      expect(pagesOff.received).toHaveLength(0);
    } finally {
      await pagesOff.close();
    }
  });
});

describe('2025 handshake era over HTTP, for a client that opens no GET stream', () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    fixture = await startHttpFixture();
  });
  afterAll(() => fixture?.stop());

  it('asks on the stream of the POST that made the call, and finishes there', async () => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer alice',
    };
    const post = (body: object) =>
      fetch(fixture.url, { method: 'POST', headers, body: JSON.stringify(body) });
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    await initialized.text();
    headers['mcp-session-id'] = initialized.headers.get('mcp-session-id')!;
    headers['mcp-protocol-version'] = '2025-11-25';
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

    const call = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'pickup_date', arguments: {} },
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const events = sseMessages(call.body!);
    const question = (await events.next()).value as {
      id: number;
      method: string;
      params: { message: string };
    };
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Pickup date?' } });

    const answered = await post({
      jsonrpc: '2.0',
      id: question.id,
      result: { action: 'accept', content: { value: '2026-12-24' } },
    });
    expect(answered.status).toBe(202);
    expect((await events.next()).value).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'Pickup on 2026-12-24.' }] },
    });
  });
});

/** The JSON-RPC messages of an SSE response body, as they arrive. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
        .join('\n');
      buffered = buffered.slice(end + 2);
      if (data.trim()) yield JSON.parse(data);
    }
  }
}
