import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type EventOutlet,
  eventStreamHeaders,
  type HttpExchange,
  type HttpResponder,
  messageWriter,
} from './http-exchange.js';

/** A node:http request as an {@link HttpExchange}. */
export function nodeExchange(req: IncomingMessage, res: ServerResponse, origin: string): HttpExchange {
  // Nothing here is kept while a response stays open (a 2025 question waits on one): only the
  // listener `onAbort` adds, whose closure holds just the response and that listener.
  return {
    method: req.method ?? 'GET',
    remoteAddress: req.socket.remoteAddress,
    get url() {
      return `${origin}${req.url ?? '/'}`;
    },
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: () => chunksOf(req),
    onAbort: (listener) => whenClosedEarly(res, listener),
    webRequest(body) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      return new Request(`${origin}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body && { body: body as unknown as ReadableStream }),
      });
    },
  };
}

function whenClosedEarly(res: ServerResponse, listener: () => void): void {
  res.once('close', () => {
    if (!res.writableFinished) listener();
  });
}

/**
 * The request body's chunks, read with plain listeners that are removed once it ends. (A Readable's
 * own async iterator leaves its end-of-stream watchers on the request for as long as it lives: some
 * 500 bytes per response held open.)
 */
function chunksOf(req: IncomingMessage): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const queued: Uint8Array[] = [];
      let ended = false;
      let failure: unknown;
      let wake: (() => void) | undefined;
      // One chunk at a time: the request is paused until the reader asks for more.
      const onData = (chunk: Uint8Array) => {
        queued.push(chunk);
        req.pause();
        wake?.();
      };
      const onEnd = () => {
        ended = true;
        wake?.();
      };
      const onError = (error: unknown) => {
        failure = error ?? new Error('The request failed before its body ended.');
        wake?.();
      };
      const detach = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('close', onEnd);
        req.off('error', onError);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('close', onEnd);
      req.on('error', onError);
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const chunk = queued.shift();
            if (chunk) return { value: chunk, done: false };
            if (failure !== undefined) {
              detach();
              throw failure;
            }
            if (ended) {
              detach();
              if (!req.complete) throw new Error('The client closed the connection before the body ended.');
              return { value: undefined, done: true };
            }
            const more = new Promise<void>((resolve) => {
              wake = resolve;
            });
            req.resume();
            await more;
            wake = undefined;
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          detach();
          req.pause();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** Answers on a node:http response. */
export function nodeResponder(res: ServerResponse): HttpResponder {
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
      return new NodeOutlet(res);
    },
    async web(response) {
      await writeWebResponse(res, response);
    },
  };
  return responder;
}

/** An event stream on a node:http response (a class: one small object per open stream). */
class NodeOutlet implements EventOutlet {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  write(frames: string): void {
    if (!this.#res.destroyed && !this.#res.writableEnded) this.#res.write(frames);
  }

  end(): void {
    if (!this.#res.writableEnded) this.#res.end();
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
