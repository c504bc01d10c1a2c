import { describe, expect, it } from 'vitest';
import { openingRequest, REQUEST_HEADERS, retryRequest } from './messages.js';

describe('the survey requests', () => {
  it('open with a 2026-07-28 tools/call carrying the full _meta envelope', () => {
    const message = JSON.parse(openingRequest(7, 3));
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'parley-bench', version: '0.1.0' },
        },
        name: 'survey',
        arguments: { questions: 3 },
      },
    });
  });

  it('retry with only the latest answer and the state byte for byte', () => {
    const state = 'opaque+/=state "with quotes"';
    const message = JSON.parse(retryRequest(8, 3, 1, state));
    expect(message.id).toBe(8);
    expect(message.params.arguments).toEqual({ questions: 3 });
    expect(message.params.inputResponses).toEqual({
      q1: { action: 'accept', content: { answer: 'answer 2' } },
    });
    expect(message.params.requestState).toBe(state);
  });

  it('send the headers the spec requires for tools/call over HTTP', () => {
    expect(REQUEST_HEADERS).toMatchObject({
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'survey',
    });
  });
});
