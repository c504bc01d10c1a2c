import type { HttpExchange, HttpResponder } from './http-exchange.js';

const encoder = new TextEncoder();

/** A web `Request` as an {@link HttpExchange}, and a promise of the `Response` its responder settles. */
export function toFetchExchange(request: Request): {
  exchange: HttpExchange;
  responder: HttpResponder;
  response: Promise<Response>;
} {
  let settle!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => {
    settle = resolve;
  });
  const exchange: HttpExchange = {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name) ?? undefined,
    body: () => request.body,
    onAbort: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
    webRequest: (body) =>
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        ...(body && { body: body as unknown as ReadableStream }),
      }),
  };
  const responder: HttpResponder = {
    json: (status, body) => settle(Response.json(body, { status })),
    empty: (status) => settle(new Response(null, { status })),
    openStream: () => {
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const writer = writable.getWriter();
      settle(new Response(readable, { status: 200, headers: sseHeaders() }));
      return (message) => {
        if (message === null) void writer.close().catch(() => {});
        else void writer.write(encoder.encode(sseFrame(message))).catch(() => {});
      };
    },
    web: async (answer) => settle(answer),
  };
  return { exchange, responder, response };
}

/** A new object per response (adapters may write into the one they get). */
function sseHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };
}

/** One server-sent event carrying a JSON-RPC message. */
export function sseFrame(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}
