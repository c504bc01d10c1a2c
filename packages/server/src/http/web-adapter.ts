import { readCappedBody } from '@parley/core/node';
import {
  type EventOutlet,
  eventStreamHeaders,
  type HttpExchange,
  type HttpResponder,
  messageWriter,
  SLOW_READER_LIMITS,
  type SlowReaderLimits,
} from './http-exchange.js';

const encoder = new TextEncoder();

/**
 * A web `Request` as an {@link HttpExchange}, and a promise of the `Response` its responder settles.
 * `remoteAddress`: the peer's address, when the runtime that received the request tells it. Event
 * streams drop a reader that stops reading (`limits`), as far as a web stream can tell: what the
 * runtime took from the stream counts as gone out.
 */
export function toFetchExchange(
  request: Request,
  remoteAddress?: string,
  limits: SlowReaderLimits = SLOW_READER_LIMITS,
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
    readBody: (maxBytes) => readCappedBody(request.body, maxBytes, request.headers.get('content-length')),
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
      const outlet = new WebOutlet(limits, abort);
      settle(new Response(outlet.body, { status: 200, headers: { ...eventStreamHeaders(), ...headers } }));
      return outlet;
    },
    web: async (answer) => settle(answer),
  };
  return { exchange, responder, response };
}

/** What the stream queues before the reader counts as behind. */
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * An event stream as a web `ReadableStream` of bytes. The reader is behind while the stream's queue
 * is over its high-water mark; while behind, a reader that took nothing for `writeTimeoutMs`, or
 * that lets `maxQueuedBytes` pile up, is dropped (the stream errors and the exchange counts as
 * aborted).
 */
class WebOutlet implements EventOutlet {
  readonly body: ReadableStream<Uint8Array>;
  readonly #limits: SlowReaderLimits;
  readonly #aborted: () => void;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #watch: ReturnType<typeof setTimeout> | undefined;
  #queuedAtCheck = 0;
  #addedSinceCheck = 0;
  #waiting: ((drained: boolean) => void)[] = [];

  constructor(limits: SlowReaderLimits, aborted: () => void) {
    this.#limits = limits;
    this.#aborted = aborted;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#caughtUp(true),
        cancel: () => {
          this.#open = false;
          this.#caughtUp(false);
          aborted();
        },
      },
      { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
  }

  write(frames: string): boolean {
    if (!this.#open) return false;
    const bytes = encoder.encode(frames);
    this.#controller.enqueue(bytes);
    if (this.#watch !== undefined) {
      this.#addedSinceCheck += bytes.byteLength;
      if (this.#queued() > this.#limits.maxQueuedBytes) {
        this.abort();
        return false;
      }
      return false;
    }
    const fits = (this.#controller.desiredSize ?? 0) > 0;
    if (!fits) this.#arm();
    return fits;
  }

  drained(): Promise<boolean> {
    if (!this.#open) return Promise.resolve(false);
    if ((this.#controller.desiredSize ?? 0) > 0) return Promise.resolve(true);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#caughtUp(false);
    this.#controller.close();
  }

  abort(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#caughtUp(false);
    this.#controller.error(new Error('The client stopped reading this event stream.'));
    this.#aborted();
  }

  #queued(): number {
    return HIGH_WATER_BYTES - (this.#controller.desiredSize ?? 0);
  }

  #arm(): void {
    this.#queuedAtCheck = this.#queued();
    this.#addedSinceCheck = 0;
    this.#watch = setTimeout(() => {
      const wentOut = this.#queuedAtCheck + this.#addedSinceCheck - this.#queued();
      if (wentOut <= 0) this.abort();
      else this.#arm();
    }, this.#limits.writeTimeoutMs);
    this.#watch.unref?.();
  }

  /** The reader wants more (or the stream is over): stop watching, wake whoever waits. */
  #caughtUp(drained: boolean): void {
    clearTimeout(this.#watch);
    this.#watch = undefined;
    for (const wake of this.#waiting.splice(0)) wake(drained);
  }
}
