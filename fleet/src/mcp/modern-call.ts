import type { HttpCall } from '../lb/send.js';

/** The answers of one retry, by `inputRequests` key. */
export type InputResponses = Readonly<Record<string, { action: string; content?: Record<string, unknown> }>>;

/** One 2026-07-28 `tools/call` round. */
export interface ToolRound {
  readonly tool: string;
  readonly args?: Record<string, unknown>;
  /** The bearer token of the user making the call. */
  readonly token: string;
  /** Self-reported client name (the connect page shows it). */
  readonly clientName: string;
  readonly inputResponses?: InputResponses;
  readonly requestState?: string;
}

const VERSION = '2026-07-28';
let nextId = 1;

/** The HTTP request of a 2026-07-28 `tools/call`: envelope `_meta`, the required headers, the retry material. */
export function toolCall(round: ToolRound): HttpCall {
  const params = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      'io.modelcontextprotocol/clientInfo': { name: round.clientName, version: '1.0.0' },
    },
    name: round.tool,
    arguments: round.args ?? {},
    ...(round.inputResponses && { inputResponses: round.inputResponses }),
    ...(round.requestState !== undefined && { requestState: round.requestState }),
  };
  return rpc('tools/call', params, round.token, round.tool);
}

/** `tools/list`: the cheap request the driver pads the sequence with. */
export function toolsList(token: string): HttpCall {
  const params = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
  return rpc('tools/list', params, token);
}

function rpc(method: string, params: object, token: string, name?: string): HttpCall {
  return {
    method: 'POST',
    path: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  };
}
