import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpServerOptions, readCappedBody, SERVER_HTTP_LIMITS } from '@parley/core/node';
import { messagePage } from '../flows/pages.js';
import { nodeExchange, writeWebResponse } from '../http/node-adapter.js';
import type { PageListenerStarter } from '../pages/question-pages.js';

/** Largest body a page of this server takes (a flow page's form, a question page's answer). */
export const PAGE_BODY_LIMIT = 64 * 1024;

/** Serves one node request with `handle` (pages of this server), 404 when it passes. */
export async function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  handle: (request: Request) => Promise<Response | undefined>,
): Promise<void> {
  const exchange = nodeExchange(req, res, origin);
  const read = await readCappedBody(req, PAGE_BODY_LIMIT, req.headers['content-length']);
  if (!read.ok) {
    const [status, title] = read.reason === 'too-large' ? [413, 'Too large'] : [400, 'Bad request'];
    return writeWebResponse(res, messagePage(status, title, read.message));
  }
  const request = exchange.webRequest(read.bytes.length > 0 ? read.bytes : undefined);
  await writeWebResponse(res, (await handle(request)) ?? new Response('Not found', { status: 404 }));
}

/**
 * Starts the loopback listener that serves question pages when nothing else does (a stdio server,
 * an endpoint mounted without a public URL). It does not keep the process alive on its own.
 */
export const startPageListener: PageListenerStarter = async (handle, where) => {
  let origin = '';
  const http = createHttpServer(httpServerOptions(SERVER_HTTP_LIMITS), (req, res) => {
    servePage(req, res, origin, handle).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(where.port, where.host, () => resolve());
  });
  http.unref();
  const { port } = http.address() as AddressInfo;
  origin = `http://${where.host.includes(':') ? `[${where.host}]` : where.host}:${port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
};
