import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A bench server listening on loopback HTTP, with its MCP endpoint's URL. */
export interface RunningHttp {
  readonly url: string;
  readonly http: HttpServer;
  close(): Promise<void>;
}

/**
 * Serves `route` on a free loopback port; `close` runs `beforeClose` (the server's own shutdown),
 * then drops every connection and stops listening.
 */
export async function serveOnLoopback(
  route: (req: IncomingMessage, res: ServerResponse) => void,
  beforeClose?: () => Promise<void>,
): Promise<RunningHttp> {
  const http = createServer(route);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    http,
    async close() {
      await beforeClose?.();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Reads a request's whole body as text, then calls `then` with it. */
export function onBody(req: IncomingMessage, then: (body: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => then(Buffer.concat(chunks).toString()));
}
