import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';
import { encodeHeaderValue, mcpNameField } from '@parley/core';

/**
 * The 2026-07-28 headers a request derives from its own body: `MCP-Protocol-Version` from the
 * revision its `_meta` envelope claims, `Mcp-Method`, and `Mcp-Name` where the method names
 * something. A message that claims no revision (a 2025 session's) gets none, so no 2026-07-28
 * header reaches a 2025 exchange.
 */
export function modernHeaders(message: JSONRPCMessage): Record<string, string> | undefined {
  if (!isRequest(message)) return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string') return undefined;
  const headers: Record<string, string> = {
    'mcp-protocol-version': version,
    'mcp-method': message.method,
  };
  const field = mcpNameField(message.method);
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

/**
 * Whether a message the client sends is a request (it has a method and an id): told by shape, as
 * the SDK's client made it; its own schema check would parse the whole message again per request.
 */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}
