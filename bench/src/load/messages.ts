import { answerOf, keyOf, PROTOCOL_VERSION, TOOL } from '../survey.js';

/**
 * The JSON-RPC requests of one survey flow, built the same way for every server: a 2026-07-28
 * `tools/call` with the full `_meta` envelope, then retries that answer the latest question and
 * echo the latest `requestState` byte for byte.
 */

/** HTTP headers of every request (the spec's required headers for `tools/call`). */
export const REQUEST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': TOOL,
});

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'parley-bench', version: '0.1.0' },
};

/** The opening request of a flow of `questions` questions. */
export function openingRequest(id: number, questions: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { _meta: META, name: TOOL, arguments: { questions } },
  });
}

/** The retry that answers question `answered` (0-based) and echoes `requestState`. */
export function retryRequest(id: number, questions: number, answered: number, requestState: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      _meta: META,
      name: TOOL,
      arguments: { questions },
      inputResponses: { [keyOf(answered)]: { action: 'accept', content: { answer: answerOf(answered) } } },
      requestState,
    },
  });
}
