// A refused `initialize` (the client does not accept event streams, or batches it) opens no session:
// nothing is left behind for the idle sweep to find half an hour later.
import { createServer } from '@parley/server';
import { expect, it } from 'vitest';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'refused', version: '1' } },
};

it.each([
  ['a client that does not accept event streams', { accept: 'application/json' }, INITIALIZE, 406],
  ['initialize in a batch', {}, [INITIALIZE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }], 400],
])('%s gets a refusal and no session', async (_case, headers, body, status) => {
  const endpoint = createServer({ name: 'refused', version: '1.0.0', log: () => {} }).endpoint();
  try {
    const response = await endpoint.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );
    expect(response.status).toBe(status);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(endpoint.sessions).toBe(0);
  } finally {
    await endpoint.close();
  }
});
