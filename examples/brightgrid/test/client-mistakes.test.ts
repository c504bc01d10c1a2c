// Issue 15, finding 8: a client mistake answered -32603 (internal error) with a raw zod dump, e.g.
// `prompts/get` with array arguments. Now: -32602 and a short reason.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

let brightgrid: BrightgridProcess;
beforeAll(async () => {
  brightgrid = await startBrightgridProcess();
});
afterAll(() => brightgrid.process.stop());

it('prompts/get with array arguments answers -32602 with a short reason', async () => {
  const response = await fetch(brightgrid.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'prompts/get',
      'mcp-name': 'write_review',
      authorization: `Bearer ${brightgrid.tokens.alice}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'prompts/get',
      params: {
        name: 'write_review',
        arguments: ['BG-100'],
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const reply = (await response.json()) as { error: { code: number; message: string } };
  expect(reply.error.code).toBe(-32602);
  expect(reply.error.message).toBe('Invalid params: "arguments" must be an object of named arguments');
});
