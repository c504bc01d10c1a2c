import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CappedBody, StreamConnections } from '@parley/core/node';
import {
  type EventOutlet,
  eventStreamHeaders,
  type HttpExchange,
  type HttpResponder,
  messageWriter,
  SLOW_READER_LIMITS,
  type SlowReaderLimits,
} from './http-exchange.js';
import { readNodeBody } from './node-body.js';

/** A node:http request as an {@link HttpExchange}. */
export function nodeExchange(req: IncomingMessage, res: ServerResponse, origin: string): HttpExchange {
  return new NodeExchange(req, res, origin);
}

/**
 * A class, not an object literal, because of `url`: V8 allocates the accessor pair of a literal's
 * getter in the old generation, so every young collection keeps the getter's closure (the request,
 * its headers, the response) alive until the next full collection. A getter on the prototype costs
 * nothing per request.
 *
 * Nothing here is kept while a response stays open (a 2025 question waits on one): only the listener
 * `onAbort` adds, whose closure holds just the response and that listener.
 */
class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly remoteAddress: string | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #origin: string;

  constructor(req: IncomingMessage, res: ServerResponse, origin: string) {
    this.method = req.method ?? 'GET';
    this.remoteAddress = req.socket.remoteAddress;
    this.#req = req;
    this.#res = res;
    this.#origin = origin;
  }

  get url(): string {
    return `${this.#origin}${this.#req.url ?? '/'}`;
  }

  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(maxBytes: number): Promise<CappedBody> {
    return readNodeBody(this.#req, maxBytes);
  }

  onAbort(listener: () => void): void {
    whenClosedEarly(this.#res, listener);
  }

  webRequest(body?: Uint8Array): Request {
    const req = this.#req;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    return new Request(`${this.#origin}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body && { body: body as unknown as ReadableStream }),
    });
  }
}

function whenClosedEarly(res: ServerResponse, listener: () => void): void {
  // `on`, not `once`: a response emits `close` once, and `once` wraps each listener in two more objects.
  res.on('close', () => {
    if (!res.writableFinished) listener();
  });
}

/**
 * Answers on a node:http response; its event streams drop a client that stops reading (`limits`).
 * `streams`, when given, is told of each event stream the response becomes, so a connection that
 * holds one does not take a place under the listener's connection cap.
 */
export function nodeResponder(
  res: ServerResponse,
  limits: SlowReaderLimits = SLOW_READER_LIMITS,
  streams?: StreamConnections,
): HttpResponder {
  const responder: HttpResponder = {
    json(status, body) {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    },
    empty(status) {
      res.writeHead(status);
      res.end();
    },
    openStream() {
      return messageWriter(responder.eventStream({}));
    },
    eventStream(headers) {
      res.writeHead(200, { ...eventStreamHeaders(), ...headers });
      // Headers go out now, not with the first event: a stream may stay silent for a while.
      res.flushHeaders();
      streams?.hold(res.socket);
      return new NodeOutlet(res, limits);
    },
    async web(response) {
      await writeWebResponse(res, response);
    },
  };
  return responder;
}

/**
 * An event stream on a node:http response (a class: one small object per open stream). While the
 * client is not keeping up (the response's buffer is full), a timer checks every `writeTimeoutMs`
 * that some of what is queued went out; a client that took nothing in that time, or that lets more
 * than `maxQueuedBytes` pile up, is cut off with a reset, which also frees what the kernel holds
 * for it.
 */
class NodeOutlet implements EventOutlet {
  readonly #res: ServerResponse;
  readonly #limits: SlowReaderLimits;
  /** Set while the client is behind (the response's buffer is full). */
  #watch: ReturnType<typeof setTimeout> | undefined;
  /** Bytes queued at the last check, and bytes written since: what went out is the difference. */
  #queuedAtCheck = 0;
  #addedSinceCheck = 0;
  /** Its listener for `drain`, `finish` and `close`, made the first time the client falls behind. */
  #onCaughtUp: (() => void) | undefined;

  constructor(res: ServerResponse, limits: SlowReaderLimits) {
    this.#res = res;
    this.#limits = limits;
  }

  write(frames: string): boolean {
    const res = this.#res;
    if (res.destroyed || res.writableEnded) return false;
    const behind = this.#watch !== undefined;
    const fits = res.write(frames);
    if (behind) {
      this.#addedSinceCheck += Buffer.byteLength(frames);
      if (res.writableLength > this.#limits.maxQueuedBytes) {
        this.abort();
        return false;
      }
    } else if (!fits) {
      this.#onCaughtUp ??= () => this.#caughtUp();
      const caughtUp = this.#onCaughtUp;
      res.once('drain', caughtUp);
      res.once('finish', caughtUp);
      res.once('close', caughtUp);
      this.#arm();
    }
    return fits;
  }

  drained(): Promise<boolean> {
    const res = this.#res;
    if (res.destroyed) return Promise.resolve(false);
    if (!res.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (drained: boolean) => {
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(drained);
      };
      const onDrain = () => settle(true);
      const onClose = () => settle(false);
      res.on('drain', onDrain);
      res.on('close', onClose);
    });
  }

  end(): void {
    if (!this.#res.writableEnded) this.#res.end();
  }

  abort(): void {
    this.#caughtUp();
    if (this.#res.destroyed) return;
    const socket = this.#res.socket;
    if (socket && !socket.destroyed) socket.resetAndDestroy();
    else this.#res.destroy();
  }

  #arm(): void {
    this.#queuedAtCheck = this.#res.writableLength;
    this.#addedSinceCheck = 0;
    this.#watch = setTimeout(() => this.#check(), this.#limits.writeTimeoutMs);
    this.#watch.unref?.();
  }

  #check(): void {
    const res = this.#res;
    if (res.destroyed || res.writableLength === 0) {
      this.#caughtUp();
      return;
    }
    const wentOut = this.#queuedAtCheck + this.#addedSinceCheck - res.writableLength;
    if (wentOut <= 0) this.abort();
    else this.#arm();
  }

  /** The client caught up (or is gone): no more watching. */
  #caughtUp(): void {
    clearTimeout(this.#watch);
    this.#watch = undefined;
    const caughtUp = this.#onCaughtUp;
    if (!caughtUp) return;
    this.#res.off('drain', caughtUp);
    this.#res.off('finish', caughtUp);
    this.#res.off('close', caughtUp);
  }
}

/** Writes a web `Response` (status, headers, streamed body) to a node:http response. */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body && !res.req.complete && !response.headers.has('content-length')) {
    // An answer to a body that was never read (a refusal, small) goes out with its length: the
    // listener then keeps the connection open a while (see httpServerOptions), and a chunked
    // answer would only end when that does.
    const bytes = new Uint8Array(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': bytes.byteLength });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A client that goes away cancels the body (through the reader that holds it locked), so whoever
  // produces it learns the response is no longer wanted.
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch {
    // The client went away or the stream failed mid-way: nothing more can be sent.
  }
  res.end();
}
