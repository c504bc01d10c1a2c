import { ask, createServer } from '@parley/server';
import { describe, expect, it } from 'vitest';
import { newKey, ringText, sealingKeyOf } from './keys.js';

describe('the key ring', () => {
  it('reads the sealing key of a state a real server issued, and a ring the server accepts', async () => {
    const [newer, older] = [newKey('k-new'), newKey('k-old')];
    const server = createServer({
      name: 'keys',
      version: '1.0.0',
      state: { keys: ringText([newer, older]) },
      log: () => {},
    });
    server.tool('ask', { description: 'Asks.' }, async (_args, ctx) => {
      await ctx.elicit('Name?', ask.text(), { key: 'name' });
      return 'done';
    });
    const endpoint = server.endpoint();
    const response = await endpoint.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'ask',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
            },
            name: 'ask',
            arguments: {},
          },
        }),
      }),
    );
    const { result } = (await response.json()) as { result: { requestState: string } };
    expect(sealingKeyOf(result.requestState)).toBe('k-new');
    await endpoint.close();
  });

  it('answers undefined for what is not a state token', () => {
    expect(sealingKeyOf('')).toBeUndefined();
    expect(sealingKeyOf('not a token')).toBeUndefined();
    expect(newKey('a').secret).not.toBe(newKey('a').secret);
  });
});
