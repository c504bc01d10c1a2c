import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type EventOutlet,
  eventStreamHeaders,
  type HttpExchange,
  type HttpResponder,
} from './http-exchange.js';
import { sseFrame } from './web-adapter.js';

/** A node:http request as an {@link HttpExchange}. */
export function nodeExchange(req: IncomingMessage, res: ServerResponse, origin: string): HttpExchange {
  const url = `${origin}${req.url ?? '/'}`;
  return {
    method: req.method ?? 'GET',
    url,
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body: () => req,
    onAbort(listener) {
      res.once('close', () => {
        if (!res.writableFinished) listener();
      });
    },
    webRequest(body) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      return new Request(url, {
        method: req.method ?? 'GET',
        headers,
        ...(body && { body: body as unknown as ReadableStream }),
      });
    },
  };
}

/** Answers on a node:http response. */
export function nodeResponder(res: ServerResponse): HttpResponder {
  const responder: HttpResponder = {
    json(status, body) {
      closeIfBodyUnread(res);
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    },
    empty(status) {
      closeIfBodyUnread(res);
      res.writeHead(status);
      res.end();
    },
    openStream() {
      const outlet = responder.eventStream({});
      return (message) => {
        if (message === null) outlet.end();
        else outlet.write(sseFrame(message));
      };
    },
    eventStream(headers) {
      res.writeHead(200, { ...eventStreamHeaders(), ...headers });
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
  closeIfBodyUnread(res);
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

/**
 * An answer sent before the client finished sending its body (413, or a refusal that never read
 * it) ends the connection, so the rest of the body is neither read nor taken as the next request.
 */
function closeIfBodyUnread(res: ServerResponse): void {
  if (!res.req.complete) res.shouldKeepAlive = false;
}
