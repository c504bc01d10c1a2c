import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';

/** The request field each method's `Mcp-Name` header repeats (MCP 2026-07-28, Streamable HTTP). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

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
  const field = Object.hasOwn(NAME_FIELD, message.method) ? NAME_FIELD[message.method] : undefined;
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

/**
 * A string as an HTTP field value: as it is when it is visible ASCII (tabs and inner spaces
 * allowed) with no outer whitespace, else base64 of its UTF-8 between `=?base64?` and `?=` (as is
 * a value that looks like that already, so the server never decodes what was plain).
 */
export function headerValue(value: string): string {
  return plainFieldValue(value)
    ? value
    : `${SENTINEL_START}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_END}`;
}

/**
 * Whether a message the client sends is a request (it has a method and an id): told by shape, as
 * the SDK's client made it; its own schema check would parse the whole message again per request.
 */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

function plainFieldValue(value: string): boolean {
  if (value.length === 0 || value !== value.trim()) return false;
  if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 9 && (code < 32 || code > 126)) return false;
  }
  return true;
}
