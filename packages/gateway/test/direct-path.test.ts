import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { telemetry } from '@parley/server/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway, startUpstream, type Upstream } from './support.js';

// The gateway's lean path (`directRelay`: a 2026-07-28 host, a 2026-07-28 upstream over HTTP)
// against its full one (the Parley handler `relayCall`, which any middleware forces): the same
// host, rounds and answers through both, over real loopback HTTP, in front of a Parley upstream and
// a raw SDK one. Whatever the lean path cannot do itself it hands to the full path, at the step
// the upstream reached.

const REVISION = '2026-07-28';
const CAPABILITIES = { elicitation: { form: {}, url: {} } };

interface Message {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown> & {
    resultType?: string;
    inputRequests?: Record<string, { params: Record<string, unknown> }>;
    requestState?: string;
  };
  readonly error?: { code: number; message: string };
}

/** One POST; the messages of its answer (a JSON body, or each `data:` of an event stream). */
async function post(
  url: string,
  name: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Promise<Message[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': REVISION,
          'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
          'io.modelcontextprotocol/clientInfo': { name: 'direct-path-test', version: '1.0.0' },
          ...meta,
        },
      },
    }),
  });
  const text = await response.text();
  if (!text.startsWith('{'))
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as Message);
  return [JSON.parse(text) as Message];
}

type Answer = (key: string, params: Record<string, unknown>) => unknown;

/**
 * A call driven to its end: every message the host got, with each `requestState` and URL
 * question id made a placeholder (they differ per run and per path), and the states themselves.
 */
async function drive(
  url: string,
  name: string,
  args: Record<string, unknown>,
  answer: Answer,
  meta?: Record<string, unknown>,
): Promise<{ transcript: unknown[]; states: string[] }> {
  const transcript: unknown[] = [];
  const states: string[] = [];
  let retry: Record<string, unknown> = {};
  for (let round = 0; round < 8; round++) {
    const messages = await post(url, name, { arguments: args, ...retry }, meta);
    const last = messages.at(-1)!;
    transcript.push(...messages.map(normalized));
    const result = last.result;
    if (result?.resultType !== 'input_required') return { transcript, states };
    states.push(result.requestState!);
    const responses = Object.fromEntries(
      Object.entries(result.inputRequests ?? {}).map(([key, request]) => [key, answer(key, request.params)]),
    );
    retry = { requestState: result.requestState, inputResponses: responses };
  }
  throw new Error(`${name} did not end in 8 rounds`);
}

function normalized(message: Message): unknown {
  return JSON.parse(
    JSON.stringify(message)
      .replace(/"requestState":"[^"]*"/g, '"requestState":"…"')
      .replace(/"elicitationId":"[^"]*"/g, '"elicitationId":"…"'),
  );
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('the lean path of a 2026-07-28 host to a 2026-07-28 upstream', () => {
  let parley: Upstream;
  let raw: Upstream;
  let lean: RunningGateway;
  let full: RunningGateway;
  beforeAll(async () => {
    [parley, raw] = await Promise.all([
      startUpstream('parley-upstream.mjs', 'http'),
      startUpstream('raw-upstream.mjs'),
    ]);
    const config = {
      upstreams: { desk: { url: parley.url, era: REVISION }, store: { url: raw.url, era: REVISION } },
    };
    [lean, full] = await Promise.all([startGateway(config), startGateway(config)]);
    // Any middleware turns the lean path off: it must see every call.
    full.gateway.server.use(async (_request, next) => next());
  });
  afterAll(async () => {
    await Promise.all([lean?.stop(), full?.stop()]);
    await Promise.all([parley?.stop(), raw?.stop()]);
  });

  const same: [string, Record<string, unknown>, Answer, Record<string, unknown>?][] = [
    ['desk_book', {}, (key) => accept(key === 'boxes' ? { boxes: 2 } : { value: '2026-12-24' })],
    ['desk_book', {}, () => ({ action: 'decline' })],
    ['desk_together', {}, (key) => accept(key === 'name' ? { value: 'Ada' } : { value: 'blue' })],
    ['desk_pick', {}, () => accept({ value: ['ham', 'olives'] })],
    ['desk_echo', { text: 'hi', times: 2 }, () => undefined],
    ['desk_echo', { text: 'hi', times: 9 }, () => undefined],
    [
      'desk_chatty',
      {},
      () => undefined,
      { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'debug' },
    ],
    ['store_open_link', { url: 'https://example.com/connect' }, () => ({ action: 'accept' })],
    ['store_open_link', { url: 'https://xn--pple-43d.com/connect' }, () => ({ action: 'decline' })],
    ['store_open_link', { url: 'javascript:alert(1)' }, () => ({ action: 'accept' })],
    ['store_flood', {}, () => undefined],
  ];

  // Codex's profile: a number goes as text, a multi-select as yes/no fields, each read back.
  const CODEX = { 'io.modelcontextprotocol/clientInfo': { name: 'codex-mcp-client', version: '0.50.0' } };
  const codex: Answer = (key, params) => {
    const properties = (params.requestedSchema as { properties: Record<string, { type?: string }> })
      .properties;
    if (key === 'boxes') return accept({ boxes: properties.boxes?.type === 'string' ? '2' : 2 });
    if (key === 'toppings')
      return accept(
        Object.fromEntries(Object.keys(properties).map((field) => [field, field !== 'value.ham'])),
      );
    return accept({ value: '2026-09-01' });
  };
  same.push(['desk_book', {}, codex, CODEX], ['desk_pick', {}, codex, CODEX]);

  it.each(same)('serves %s %j as the full path does', async (name, args, answer, meta) => {
    const [through, reference] = await Promise.all([
      drive(lean.url, name, args, answer, meta),
      drive(full.url, name, args, answer, meta),
    ]);
    expect(through.transcript).toEqual(reference.transcript);
    for (const state of through.states) expect(state.startsWith('d.')).toBe(true);
    for (const state of reference.states) expect(state.startsWith('d.')).toBe(false);
  });

  it('lowers a form for a host its profile knows, and reads the answer back, as the full path does', async () => {
    const { transcript } = await drive(lean.url, 'desk_pick', {}, codex, CODEX);
    const asked = (transcript[0] as Message).result!.inputRequests!.toppings!.params;
    expect(Object.keys((asked.requestedSchema as { properties: object }).properties)).toEqual([
      'value.ham',
      'value.cheese',
      'value.olives',
    ]);
    expect(JSON.stringify(transcript.at(-1))).toContain('Picked cheese+olives');
  });

  it('takes answers sent before anything was asked as the full path does', async () => {
    const early = {
      arguments: {},
      inputResponses: { name: accept({ value: 'Ada' }), color: accept({ value: 'red' }), extra: accept({}) },
    };
    const [[through], [reference]] = await Promise.all([
      post(lean.url, 'desk_together', early),
      post(full.url, 'desk_together', early),
    ]);
    expect(normalized(through!)).toEqual(normalized(reference!));
    expect(through!.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Ada likes red' }] });
  });

  it('audits each question it relays as the full path does, never with the answer', async () => {
    const answer: Answer = (key) => accept(key === 'boxes' ? { boxes: 3 } : { value: '2027-01-05' });
    const events = async (gateway: RunningGateway) => {
      const before = gateway.audit.length;
      await drive(gateway.url, 'desk_book', {}, answer);
      return gateway.audit
        .slice(before)
        .map(({ at: _at, waitMs, ...event }) => ({ ...event, waited: waitMs >= 0 }));
    };
    const [through, reference] = [await events(lean), await events(full)];
    expect(through).toEqual(reference);
    expect(through.map((event) => [event.key, event.outcome])).toEqual([
      ['boxes', 'accept'],
      ['day', 'accept'],
    ]);
    expect(JSON.stringify(through)).not.toContain('2027-01-05');
  });

  it('hands an answer that does not check to the full path, which asks again and goes on', async () => {
    let tries = 0;
    const { transcript, states } = await drive(lean.url, 'desk_book', {}, (key) => {
      if (key === 'boxes') return accept({ boxes: tries++ === 0 ? 9 : 1 });
      return accept({ value: '2026-12-31' });
    });
    expect(states.map((state) => state.startsWith('d.'))).toEqual([true, false, false]);
    const asked = transcript.flatMap((message) =>
      Object.keys((message as Message).result?.inputRequests ?? {}),
    );
    expect(asked).toEqual(['boxes', 'boxes', 'day']);
    expect(JSON.stringify(transcript.at(-1))).toContain('Booked P-1-2026-12-31');
  });

  it('hands a form that asks for a secret to the full path, which asks it on its page', async () => {
    const messages = await post(lean.url, 'store_sign_in', { arguments: {} });
    const result = messages.at(-1)!.result!;
    expect(result.resultType).toBe('input_required');
    expect(result.requestState!.startsWith('d.')).toBe(false);
    const [request] = Object.values(result.inputRequests!);
    expect(request!.params.mode).toBe('url');
    expect(JSON.stringify(result)).not.toMatch(/"password"/);
  });

  it('hands a form outside the MCP subset to the full path, which tells the upstream it cannot be shown', async () => {
    const [through, reference] = await Promise.all([
      drive(lean.url, 'store_nested', {}, () => undefined),
      drive(full.url, 'store_nested', {}, () => undefined),
    ]);
    expect(through.transcript).toEqual(reference.transcript);
  });

  it('stops the upstream leg when the host goes away', async () => {
    const gone = new AbortController();
    const call = fetch(lean.url, {
      method: 'POST',
      signal: gone.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': REVISION,
        'mcp-method': 'tools/call',
        'mcp-name': 'desk_wait',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'desk_wait',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': REVISION,
            'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
          },
        },
      }),
    }).catch(() => 'gone');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = parley.stderr().split('cancelled wait').length;
    gone.abort();
    expect(await call).toBe('gone');
    await expect.poll(() => parley.stderr().split('cancelled wait').length).toBe(before + 1);
  });

  it('refuses its state when it was tampered with or sent for other arguments', async () => {
    const [first] = await post(lean.url, 'desk_book', { arguments: {} });
    const state = first!.result!.requestState!;
    const answers = { boxes: accept({ boxes: 1 }) };
    const tampered = `${state.slice(0, -3)}${state.endsWith('A') ? 'B' : 'A'}${state.slice(-2)}`;
    for (const [params, why] of [
      [{ arguments: {}, requestState: tampered, inputResponses: answers }, 'tampered'],
      [{ arguments: { other: 1 }, requestState: state, inputResponses: answers }, 'other arguments'],
    ] as const) {
      const [reply] = await post(lean.url, 'desk_book', params);
      expect(reply!.error, why).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    }
    // The full path does not take it either, nor the lean path a state of the full path's.
    const [other] = await post(full.url, 'desk_book', {
      arguments: {},
      requestState: state,
      inputResponses: answers,
    });
    expect(other!.error).toMatchObject({ code: -32602 });
  });
});

describe('the lean path under era auto', () => {
  let raw: Upstream;
  let lean: RunningGateway;
  let full: RunningGateway;
  beforeAll(async () => {
    raw = await startUpstream('raw-upstream.mjs');
    const config = { upstreams: { store: { url: raw.url } } };
    [lean, full] = await Promise.all([startGateway(config), startGateway(config)]);
    full.gateway.server.use(async (_request, next) => next());
  });
  afterAll(async () => {
    await Promise.all([lean?.stop(), full?.stop()]);
    await raw?.stop();
  });

  it('hands a tool that asks only over the handshake to a 2025 session, as the full path does', async () => {
    const answer: Answer = () => accept({ aisle: 7 });
    const [through, reference] = await Promise.all([
      drive(lean.url, 'ask_by_push', {}, answer),
      drive(full.url, 'ask_by_push', {}, answer),
    ]);
    expect(through.transcript).toEqual(reference.transcript);
    expect(JSON.stringify(through.transcript.at(-1))).toContain('7');
    for (const state of through.states) expect(state.startsWith('d.')).toBe(false);
  });
});

describe('a lean call past its limits', () => {
  let parley: Upstream;
  let lean: RunningGateway;
  beforeAll(async () => {
    parley = await startUpstream('parley-upstream.mjs', 'http');
    lean = await startGateway({
      upstreams: { desk: { url: parley.url, era: REVISION, timeoutMs: 600 } },
      maxRounds: 1,
    });
  });
  afterAll(async () => {
    await lean?.stop();
    await parley?.stop();
  });

  it('ends with an error that says so, and stops the upstream request', async () => {
    const before = parley.stderr().split('cancelled wait').length;
    const [reply] = await post(lean.url, 'wait', { arguments: {} });
    expect(reply!.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The upstream desk did not answer in time; try again.' }],
    });
    await expect.poll(() => parley.stderr().split('cancelled wait').length).toBe(before + 1);
  });

  it('stops a call that asks for more rounds than maxRounds, with an error that says so', async () => {
    const { transcript, states } = await drive(lean.url, 'book', {}, () => accept({ boxes: 1 }));
    expect(states).toHaveLength(1);
    expect(transcript.at(-1)).toMatchObject({
      result: {
        isError: true,
        content: [{ text: expect.stringContaining('more than 1 rounds in one call') }],
      },
    });
  });
});

describe('the lean path with telemetry()', () => {
  let parley: Upstream;
  let traced: RunningGateway;
  const exporter = new InMemorySpanExporter();
  beforeAll(async () => {
    parley = await startUpstream('parley-upstream.mjs', 'http');
    traced = await startGateway({ upstreams: { desk: { url: parley.url, era: REVISION } } });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // Marked directCalls: it runs around the calls the lean path serves, and keeps them on it.
    traced.gateway.server.use(telemetry({ tracer: provider.getTracer('gateway-test') }));
  });
  afterAll(async () => {
    await traced?.stop();
    await parley?.stop();
  });

  it('keeps a 2026-07-28 call on the lean path, with a span for each round', async () => {
    const answer: Answer = (key) => accept(key === 'boxes' ? { boxes: 2 } : { value: '2026-12-24' });
    const { transcript, states } = await drive(traced.url, 'book', {}, answer);
    expect(JSON.stringify(transcript.at(-1))).toContain('P-2-2026-12-24');
    expect(states.length).toBe(2);
    for (const state of states) expect(state.startsWith('d.')).toBe(true);
    const spans = exporter.getFinishedSpans().filter((span) => span.name === 'tools/call book');
    expect(spans.map((span) => [span.attributes['parley.round'], span.attributes['parley.outcome']])).toEqual(
      [
        [1, 'ask'],
        [2, 'ask'],
        [3, 'complete'],
      ],
    );
  });
});
