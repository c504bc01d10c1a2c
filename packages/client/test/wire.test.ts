import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, recordingFetch, startHttpServer } from './support.js';

// What actually crosses the wire on the modern era, read from the HTTP requests and responses.
describe('modern-era retries on the wire', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpServer();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('sends each round as a new request with the full params, fresh _meta, the latest keys and the exact state', async () => {
    const wire = recordingFetch();
    const client = await connect(http.url, {
      ui: scripted({
        step1: { name: 'Cy' },
        step2: { color: 'teal' },
        name: { name: 'Bo' },
        color: { color: 'red' },
      }),
      fetch: wire.fetch,
      clientInfo: { name: 'wire-test', version: '2.0.0' },
    });
    try {
      await client.callTool('multi_round', { trace: 'x' });
      await client.callTool('two_questions');
    } finally {
      await client.close();
    }
    const calls = wire.exchanges.filter((exchange) => exchange.request.method === 'tools/call');
    const multi = calls.filter((exchange) => exchange.request.params.name === 'multi_round');
    expect(multi).toHaveLength(3);
    expect(new Set(multi.map((exchange) => exchange.request.id)).size).toBe(3);
    for (const exchange of calls) {
      expect(exchange.request.params._meta).toEqual({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '2.0.0' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      });
      expect(exchange.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(exchange.headers['mcp-method']).toBe('tools/call');
    }
    const [first, second, third] = multi.map((exchange) => exchange.request.params);
    expect(first).toEqual({ name: 'multi_round', arguments: { trace: 'x' }, _meta: first!._meta });
    expect(second).toEqual({
      name: 'multi_round',
      arguments: { trace: 'x' },
      _meta: second!._meta,
      inputResponses: { step1: { action: 'accept', content: { name: 'Cy' } } },
    });
    const stateSent = multi[1]!.response?.result?.requestState;
    expect(typeof stateSent).toBe('string');
    expect(third).toEqual({
      name: 'multi_round',
      arguments: { trace: 'x' },
      _meta: third!._meta,
      inputResponses: { step2: { action: 'accept', content: { color: 'teal' } } },
      requestState: stateSent,
    });
    // The other call carries nothing from this one.
    const two = calls.filter((exchange) => exchange.request.params.name === 'two_questions');
    expect(two[0]!.request.params).not.toHaveProperty('inputResponses');
    expect(two[0]!.request.params).not.toHaveProperty('requestState');
    expect(two[1]!.request.params).not.toHaveProperty('requestState');
  });
});
