import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import {
  createMcpHandler,
  isLegacyRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

/** A server of the raw SDK v2 listening on loopback for both eras. */
export interface BothErasServer {
  /** Its endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a server written with the raw official SDK (v2) for both protocol eras on one loopback
 * endpoint (`/mcp`), as test peers need it: 2026-07-28 requests go to the SDK's stateless handler,
 * and each 2025 client gets a session of its own, so the server can push `elicitation/create` to it.
 * `build` makes a server for one era (a new one per 2025 session).
 *
 * @example
 * const server = await serveBothEras((era) => buildWarehouse(era));
 * console.log(server.url);
 */
export async function serveBothEras(build: (era: 'modern' | 'legacy') => McpServer): Promise<BothErasServer> {
  const modern = createMcpHandler(() => build('modern'), { legacy: 'reject' });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const legacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    const existing = sessionId ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(request);
    if (sessionId)
      return Response.json(
        { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unknown session' } },
        { status: 404 },
      );
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await build('legacy').connect(transport);
    return transport.handleRequest(request);
  };
  const http = createServer(
    getRequestListener(async (request) => {
      if (new URL(request.url).pathname !== '/mcp') return new Response('Not found', { status: 404 });
      return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
