// A resource that does not exist is a JSON-RPC error carrying the URI (-32602, data { uri }), on both
// eras: a URI no resource or template matches, and one a template's handler says it does not have.
import {
  Client,
  ResourceNotFoundError as ClientResourceNotFoundError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createServer, type Listening, ResourceNotFoundError, resourceResult } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpWire } from './wire/http-wire.js';
import type { ModernWire } from './wire/modern-envelope.js';

let listening: Listening;
let wire: ModernWire;
let ran = 0;

beforeAll(async () => {
  const server = createServer({ name: 'resources-test', version: '1.0.0', log: () => {} });
  const orders = new Map([['1', { id: '1', boxes: 2 }]]);
  server.resource('orders://{id}', { name: 'order', mimeType: 'application/json' }, ({ uri, params }) => {
    ran++;
    const order = orders.get(params.id!);
    if (!order) throw new ResourceNotFoundError(uri);
    return resourceResult({ uri, mimeType: 'application/json', text: JSON.stringify(order) });
  });
  listening = await server.listen({ port: 0 });
  wire = httpWire(listening.url);
});
afterAll(() => listening?.close());

describe('resources/read of a resource that does not exist', () => {
  it('2026-07-28: -32602 with data { uri }, for an unmatched URI (no handler runs) and for a template miss', async () => {
    ran = 0;
    const unmatched = await wire.request('resources/read', { uri: 'invoices://7' });
    expect(unmatched.message.error).toMatchObject({ code: -32602, data: { uri: 'invoices://7' } });
    expect(unmatched.message.error?.message).toContain('invoices://7');
    expect(ran).toBe(0);

    const missing = await wire.request('resources/read', { uri: 'orders://9' });
    expect(missing.message.error).toMatchObject({ code: -32602, data: { uri: 'orders://9' } });
    expect(ran).toBe(1);

    const found = await wire.request('resources/read', { uri: 'orders://1' });
    expect(found.message.result?.contents).toEqual([
      { uri: 'orders://1', mimeType: 'application/json', text: '{"id":"1","boxes":2}' },
    ]);
  });

  it('2025-11-25: the official client reads it as a ResourceNotFoundError naming the URI', async () => {
    const client = new Client({ name: 'resources-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    try {
      for (const uri of ['invoices://7', 'orders://9']) {
        const error = await client.readResource({ uri }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(ClientResourceNotFoundError);
        expect((error as ClientResourceNotFoundError).uri).toBe(uri);
        expect(error).toMatchObject({ code: -32602, data: { uri } });
      }
    } finally {
      await client.close();
    }
  });
});
