import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { treatAbsentResultTypeAsComplete } from './absent-result-type.js';

function transportDelivering(): { transport: Transport; delivered: JSONRPCMessage[] } {
  const delivered: JSONRPCMessage[] = [];
  const transport = {
    start: async () => {},
    send: async () => {},
    close: async () => {},
    onmessage: (message: JSONRPCMessage) => {
      delivered.push(message);
    },
  } as unknown as Transport;
  return { transport, delivered };
}

describe('treatAbsentResultTypeAsComplete', () => {
  it('marks a result without resultType as complete and leaves everything else alone', () => {
    const { transport, delivered } = transportDelivering();
    treatAbsentResultTypeAsComplete(transport);
    const messages: JSONRPCMessage[] = [
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', requestState: 's' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ];
    for (const message of messages) transport.onmessage?.(message);
    expect(delivered).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [], resultType: 'complete' } },
      messages[1],
      messages[2],
      messages[3],
    ]);
  });
});
