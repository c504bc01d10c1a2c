// server.directToolCalls: a handler offered each 2026-07-28 tools/call over HTTP before Parley's
// own handling (what the gateway's lean path is built on). Over real loopback HTTP: what it is
// given, what its outcomes become on the wire, its sealed state, and when it is not offered a call.
import {
  createServer,
  type DirectToolCall,
  type DirectToolCalls,
  type Listening,
  type ParleyServer,
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
