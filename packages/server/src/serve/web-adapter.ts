import {
  type EventOutlet,
  eventStreamHeaders,
  type HttpExchange,
  type HttpResponder,
  messageWriter,
} from './http-exchange.js';

const encoder = new TextEncoder();

/**
 * A web `Request` as an {@link HttpExchange}, and a promise of the `Response` its responder settles.
 * `remoteAddress`: the peer's address, when the runtime that received the request tells it.
 */
export function toFetchExchange(
  request: Request,
  remoteAddress?: string,
): {
  exchange: HttpExchange;
  responder: HttpResponder;
  response: Promise<Response>;
} {
  let settle!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => {
    settle = resolve;
  });
  // The client is gone when the request is aborted or when whoever reads the response cancels it.
  const abortListeners: (() => void)[] = [];
  let aborted = false;
  const abort = () => {
    if (aborted) return;
    aborted = true;
    for (const listener of abortListeners.splice(0)) listener();
  };
  request.signal.addEventListener('abort', abort, { once: true });
  const exchange: HttpExchange = {
    method: request.method,
    url: request.url,
    remoteAddress,
    header: (name) => request.headers.get(name) ?? undefined,
    body: () => request.body,
    onAbort: (listener) => {
      if (aborted) listener();
      else abortListeners.push(listener);
    },
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
      return messageWriter(responder.eventStream({}));
    },
    eventStream: (headers) => {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let open = true;
      const body = new ReadableStream<Uint8Array>({
        start: (started) => {
          controller = started;
        },
        cancel: () => {
          open = false;
          abort();
        },
      });
      settle(new Response(body, { status: 200, headers: { ...eventStreamHeaders(), ...headers } }));
      const outlet: EventOutlet = {
        write: (frames) => {
          if (open) controller.enqueue(encoder.encode(frames));
        },
        end: () => {
          if (!open) return;
          open = false;
          controller.close();
        },
      };
      return outlet;
    },
    web: async (answer) => settle(answer),
  };
  return { exchange, responder, response };
}
