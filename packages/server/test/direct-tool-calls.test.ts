// server.directToolCalls: a handler offered each 2026-07-28 tools/call over HTTP before Parley's
// own handling (what the gateway's lean path is built on). Over real loopback HTTP: what it is
// given, what its outcomes become on the wire, its sealed state, and when it is not offered a call.
import {
  createServer,
  type DirectToolCall,
  type DirectToolCalls,
  type Listening,
  type Middleware,
  type ParleyServer,
  type RequestContext,
} from '@parley/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpWire, modernHeaders } from './wire/http-wire.js';
import { CAPABILITIES, type ModernWire, modernMeta } from './wire/modern-envelope.js';

let server: ParleyServer;
let listening: Listening;
let wire: ModernWire;
let toolRuns: Record<string, unknown>[] = [];
let offered: DirectToolCall[] = [];
let handler: DirectToolCalls = () => undefined;

beforeAll(async () => {
  server = createServer({ name: 'direct-test', version: '1.0.0', log: () => {} });
  server.tool('relay', {}, (args, ctx) => {
    toolRuns.push({ args, meta: ctx.sdk.mcpReq._meta });
    return 'served as usual';
  });
  server.directToolCalls((call) => {
    offered.push(call);
    return handler(call);
  });
  listening = await server.listen({ port: 0 });
  wire = httpWire(listening.url);
});
afterAll(async () => {
  await listening?.close();
});
beforeEach(() => {
  toolRuns = [];
  offered = [];
  handler = () => undefined;
});

const call = (
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = CAPABILITIES.formOnly,
) => wire.request('tools/call', { name: 'relay', ...params }, { capabilities });

describe('server.directToolCalls', () => {
  it('is offered the call with what the client declared, and serves it as usual when it returns nothing', async () => {
    const reply = await call({ arguments: { a: 1 } }, CAPABILITIES.formAndUrl);
    expect(reply.message.result).toMatchObject({ content: [{ type: 'text', text: 'served as usual' }] });
    expect(offered).toHaveLength(1);
    const [seen] = offered;
    expect(seen).toMatchObject({ name: 'relay', state: undefined, principal: undefined, host: undefined });
    expect(seen!.protocolVersion).toBe('2026-07-28');
    expect([seen!.can('form'), seen!.can('url'), seen!.can('sampling')]).toEqual([true, true, false]);
    expect(toolRuns).toHaveLength(1);
  });

  it('answers with its own result, complete and named by the server, without running the tool', async () => {
    handler = () =>
      Promise.resolve({ result: { content: [{ type: 'text', text: 'direct' }], _meta: { k: 1 } } });
    const reply = await call({ arguments: {} });
    expect(reply.status).toBe(200);
    expect(reply.message.result).toEqual({
      content: [{ type: 'text', text: 'direct' }],
      resultType: 'complete',
      _meta: { k: 1, 'io.modelcontextprotocol/serverInfo': { name: 'direct-test', version: '1.0.0' } },
    });
    expect(toolRuns).toHaveLength(0);
  });

  it('seals the state of its rounds, gets it back opened, and refuses it for other arguments or tampered', async () => {
    handler = (direct) =>
      Promise.resolve(
        direct.state === undefined
          ? {
              inputRequests: { q: { method: 'elicitation/create', params: { mode: 'form' } } },
              state: { leg: 1 },
            }
          : { result: { content: [{ type: 'text', text: JSON.stringify(direct.state) }] } },
      );
    const first = await call({ arguments: { a: 1 } });
    const result = first.message.result as { resultType: string; requestState: string };
    expect(result.resultType).toBe('input_required');
    expect(result.requestState.startsWith('d.')).toBe(true);
    expect(result.requestState).not.toContain('leg');
    const again = await call({ arguments: { a: 1 }, requestState: result.requestState, inputResponses: {} });
    expect(again.message.result).toMatchObject({ content: [{ text: '{"leg":1}' }] });
    const other = await call({ arguments: { a: 2 }, requestState: result.requestState, inputResponses: {} });
    expect(other.message.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const tampered = `${result.requestState.slice(0, -1)}${result.requestState.endsWith('A') ? 'B' : 'A'}`;
    const forged = await call({ arguments: { a: 1 }, requestState: tampered, inputResponses: {} });
    expect(forged.message.error).toMatchObject({ code: -32602 });
    expect(offered).toHaveLength(2);
  });

  it('hands a call back to be served as usual, fresh, with the _meta it adds', async () => {
    handler = (direct) =>
      Promise.resolve(
        direct.state === undefined
          ? { inputRequests: {}, state: 1 }
          : { serve: { meta: { 'x/handover': 'h1' } } },
      );
    const first = await call({ arguments: { a: 1 } });
    const { requestState } = first.message.result as { requestState: string };
    const served = await call({
      arguments: { a: 1 },
      requestState,
      inputResponses: { q: { action: 'accept' } },
    });
    expect(served.message.result).toMatchObject({ content: [{ text: 'served as usual' }] });
    expect(toolRuns).toEqual([{ args: { a: 1 }, meta: expect.objectContaining({ 'x/handover': 'h1' }) }]);
  });

  it('passes on a JSON-RPC error and the notifications it sends before its outcome', async () => {
    handler = (direct) => {
      direct.notify('notifications/message', { level: 'info', data: 'working' });
      return Promise.resolve({ error: { code: -32001, message: 'upstream says no' } });
    };
    const message = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'relay', _meta: modernMeta(CAPABILITIES.none) },
    };
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
    });
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
    expect(events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
      { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'upstream says no' } },
    ]);
  });

  it("is not offered a call while middleware is registered, nor a round of Parley's own", async () => {
    handler = () => Promise.resolve({ result: { content: [] } });
    const guarded = createServer({ name: 'guarded', version: '1.0.0', log: () => {} });
    guarded.tool('relay', {}, () => 'served as usual');
    const seen: string[] = [];
    guarded.directToolCalls((direct) => {
      seen.push(direct.name);
      return undefined;
    });
    guarded.use(async (_request, next) => next());
    const other = await guarded.listen({ port: 0 });
    try {
      const reply = await httpWire(other.url).request('tools/call', { name: 'relay' });
      expect(reply.message.result).toMatchObject({ content: [{ text: 'served as usual' }] });
      expect(seen).toEqual([]);
    } finally {
      await other.close();
    }
    const own = await call({ arguments: {}, requestState: 'AQ-not-a-direct-state', inputResponses: {} });
    expect(own.message.error).toMatchObject({ code: -32602 });
    expect(offered).toHaveLength(0);
  });
});

describe('server.directToolCalls with middleware marked directCalls', () => {
  /** What a middleware saw of each request, after `next()` returned or threw. */
  interface Seen {
    readonly name: string | undefined;
    readonly firstRound: boolean;
    readonly round: number | undefined;
    readonly outcome: string | undefined;
    readonly asked: readonly string[];
    readonly answered: readonly string[];
    readonly user: string | undefined;
    readonly meta: unknown;
    readonly error?: string;
  }
  let marked: ParleyServer;
  let running: Listening;
  let seen: Seen[] = [];
  let sdkRead: string | undefined;
  let direct: DirectToolCalls = () => undefined;
  let toolRan = 0;

  beforeAll(async () => {
    marked = createServer({ name: 'marked', version: '1.0.0', log: () => {} });
    marked.tool('relay', {}, () => {
      toolRan++;
      return 'served as usual';
    });
    marked.tool('hang', {}, () => new Promise<string>(() => {}));
    marked.directToolCalls((call) => direct(call));
    const watch: Middleware = async (c, next) => {
      const record = (error?: unknown) =>
        seen.push({
          name: c.name,
          firstRound: c.firstRound,
          round: c.round,
          outcome: c.outcome?.type,
          asked: [...c.asked],
          answered: c.answered.map((one) => `${one.key}:${one.action}`),
          user: c.user?.id,
          meta: c.meta?.['x/trace'],
          ...(error !== undefined && { error: String(error) }),
        });
      try {
        await next();
        record();
      } catch (error) {
        record(error instanceof Error ? error.message : error);
        throw error;
      }
    };
    marked.use(Object.assign(watch, { directCalls: true }));
    running = await marked.listen({ port: 0 });
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => {
    seen = [];
    sdkRead = undefined;
    toolRan = 0;
    direct = () => undefined;
  });
  const callMarked = (params: Record<string, unknown>) =>
    httpWire(running.url).request(
      'tools/call',
      { name: 'relay', ...params },
      { capabilities: CAPABILITIES.formOnly },
    );

  it('runs around each round the handler serves: its round, questions, answers and outcome', async () => {
    direct = (call) =>
      Promise.resolve(
        call.state === undefined
          ? { inputRequests: { q: { method: 'elicitation/create', params: { mode: 'form' } } }, state: 'one' }
          : { result: { content: [{ type: 'text', text: `direct after ${call.state}` }] } },
      );
    const first = await callMarked({
      arguments: {},
      _meta: { ...modernMeta(CAPABILITIES.formOnly), 'x/trace': 't1' },
    });
    const { requestState } = first.message.result as { requestState: string };
    const second = await callMarked({
      arguments: {},
      requestState,
      inputResponses: { q: { action: 'decline' } },
    });
    expect(second.message.result).toMatchObject({ content: [{ text: 'direct after one' }] });
    expect(toolRan).toBe(0);
    expect(seen).toEqual([
      {
        name: 'relay',
        firstRound: true,
        round: 1,
        outcome: 'ask',
        asked: ['q'],
        answered: [],
        user: undefined,
        meta: 't1',
      },
      {
        name: 'relay',
        firstRound: false,
        round: 2,
        outcome: 'complete',
        asked: [],
        answered: ['q:decline'],
        user: undefined,
        meta: undefined,
      },
    ]);
  });

  it('runs once around a call the handler hands back, and sees Parley’s own answer', async () => {
    direct = () => Promise.resolve({ serve: {} });
    const reply = await callMarked({ arguments: {} });
    expect(reply.message.result).toMatchObject({ content: [{ text: 'served as usual' }] });
    expect(toolRan).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ outcome: 'complete', round: 1 });
  });

  it('ends the chain around a handed-back call its client left', async () => {
    direct = () => Promise.resolve({ serve: {} });
    const message = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'hang', arguments: {}, _meta: modernMeta(CAPABILITIES.formOnly) },
    };
    const leaving = new AbortController();
    const sent = fetch(running.url, {
      method: 'POST',
      headers: modernHeaders(message),
      body: JSON.stringify(message),
      signal: leaving.signal,
    }).catch(() => 'left');
    await new Promise((resolve) => setTimeout(resolve, 200));
    leaving.abort();
    expect(await sent).toBe('left');
    await expect.poll(() => seen.map((one) => one.error)).toEqual([expect.stringContaining('was cancelled')]);
  });

  it('answers a handler that fails as a tool that fails: an error result with a reference, nothing of the error', async () => {
    direct = () => Promise.reject(new Error('connect failed: password=hunter2'));
    const reply = await callMarked({ arguments: {} });
    expect(reply.message.result).toMatchObject({ isError: true, resultType: 'complete' });
    const text = JSON.stringify(reply.message.result);
    expect(text).toMatch(/failed with an internal error \(reference [0-9a-f]{8}\)/);
    expect(text).not.toContain('hunter2');
    expect(seen.map((one) => one.error)).toEqual(['connect failed: password=hunter2']);
  });

  it('sees the handler’s JSON-RPC error and a refused state as errors, and the client gets them unchanged', async () => {
    direct = () => Promise.resolve({ error: { code: -32001, message: 'upstream says no' } });
    const refused = await callMarked({ arguments: {} });
    expect(refused.message.error).toEqual({ code: -32001, message: 'upstream says no' });
    const forged = await callMarked({ arguments: {}, requestState: 'd.forged', inputResponses: {} });
    expect(forged.message.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(seen.map((one) => one.error)).toEqual(['upstream says no', 'Invalid or expired requestState']);
  });

  it('lets a middleware answer from a cache without the handler, and names the fix when one reads c.sdk', async () => {
    const cached = createServer({ name: 'cached', version: '1.0.0', log: () => {} });
    cached.tool('relay', {}, () => 'served as usual');
    let offeredCalls = 0;
    cached.directToolCalls(() => {
      offeredCalls++;
      return Promise.resolve({ result: { content: [] } });
    });
    cached.use(
      Object.assign(
        async (c: RequestContext, next: () => Promise<void>) => {
          if ((c.args as { readSdk?: boolean }).readSdk) void c.sdk;
          if ((c.args as { cached?: boolean }).cached) {
            c.result = { content: [{ type: 'text', text: 'from the cache' }] };
            return;
          }
          try {
            void c.sdk;
          } catch (error) {
            sdkRead = (error as Error).message;
          }
          await next();
        },
        { directCalls: true },
      ),
    );
    const other = await cached.listen({ port: 0 });
    try {
      const wire = httpWire(other.url);
      const hit = await wire.request('tools/call', { name: 'relay', arguments: { cached: true } });
      expect(hit.message.result).toMatchObject({ content: [{ text: 'from the cache' }] });
      expect(offeredCalls).toBe(0);
      await wire.request('tools/call', { name: 'relay', arguments: {} });
      expect(offeredCalls).toBe(1);
      expect(sdkRead).toContain('a middleware marked directCalls must not read it');
      // Unguarded, the author's mistake reaches the caller with its fix (and the log), not as a crash.
      const misread = await wire.request('tools/call', { name: 'relay', arguments: { readSdk: true } });
      // As any tool's failure is answered: an error result the caller (and its model) reads.
      expect(misread.message.result).toMatchObject({ isError: true, resultType: 'complete' });
      expect(JSON.stringify(misread.message.result)).toContain(
        'a middleware marked directCalls must not read it',
      );
    } finally {
      await other.close();
    }
  });
});
