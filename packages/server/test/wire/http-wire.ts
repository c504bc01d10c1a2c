import type { FixtureEnv } from './fixture-env.js';
import { type HttpFixture, startHttpFixture } from './http-fixture.js';
import {
  CAPABILITIES,
  type JsonRpcResponse,
  MODERN,
  type ModernReply,
  type ModernWire,
  modernMeta,
  type SendOptions,
} from './modern-envelope.js';

/** Reads a JSON-RPC response from a JSON body or an SSE stream (the message with `id`). */
export async function readResponse(response: Response, id: unknown): Promise<JsonRpcResponse> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(text);
  const messages = text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 5)
    .map((line) => JSON.parse(line.slice(5)) as JsonRpcResponse);
  const found = messages.find((message) => message.id === id);
  if (!found) throw new Error(`no response with id ${String(id)} in the SSE stream:\n${text}`);
  return found;
}

/** The headers a 2026-07-28 client sends with `message`. */
export function modernHeaders(message: Record<string, unknown>, user?: string): Record<string, string> {
  const params = (message.params ?? {}) as Record<string, unknown>;
  const method = String(message.method);
  const name = method === 'resources/read' ? params.uri : params.name;
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof name === 'string' && { 'mcp-name': name }),
    ...(user !== undefined && { authorization: `Bearer ${user}` }),
  };
}

/** A 2026-07-28 connection to an HTTP endpoint: every request is its own POST, no session. */
export function httpWire(url: string, log: () => string = () => ''): ModernWire {
  let nextId = 1;
  const post = async (message: Record<string, unknown>, options: SendOptions = {}): Promise<ModernReply> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: modernHeaders(message, options.user),
      body: JSON.stringify(message),
    });
    return { status: response.status, message: await readResponse(response, message.id) };
  };
  return {
    request(method, params, options = {}) {
      const capabilities = options.capabilities ?? CAPABILITIES.formOnly;
      return post(
        { jsonrpc: '2.0', id: nextId++, method, params: { _meta: modernMeta(capabilities), ...params } },
        options,
      );
    },
    raw: post,
    log,
    close: async () => {},
  };
}

/** Starts an HTTP fixture and connects to it; closing the wire stops the process. */
export async function startHttpWire(env: FixtureEnv = {}): Promise<ModernWire & { fixture: HttpFixture }> {
  const fixture = await startHttpFixture(env);
  const wire = httpWire(fixture.url, fixture.log);
  return { ...wire, fixture, close: () => fixture.stop() };
}
