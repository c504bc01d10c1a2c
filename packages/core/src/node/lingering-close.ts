import { type IncomingMessage, ServerResponse } from 'node:http';

/** How long and how much a listener reads (and discards) of a body it refused, before it closes. */
export interface LingerLimits {
  /** Time from the end of the answer to the close, at most. */
  readonly lingerMs: number;
  /** Bytes read and thrown away, at most; past them the listener stops reading and only waits. */
  readonly lingerBytes: number;
}

/**
 * A `node:http` `ServerResponse` that closes gently when it answers before the request body arrived
 * (a 413, or any refusal that never read the body).
 *
 * Node's own response ends such a connection at once: the unread body in the socket makes the
 * kernel send a reset, which can reach the client before it read the answer (`EPIPE`, no status).
 * This one does what RFC 9112 §9.6 asks instead: the answer says `Connection: close` and goes out
 * whole, then the body is read and thrown away until the client stops (its body ends or it closes
 * the connection), for at most `lingerBytes`, after which the socket is simply not read (TCP flow
 * control holds the client); only after `lingerMs` is the connection closed regardless. Memory holds
 * none of the discarded body. A refusal should carry a `Content-Length`: a chunked answer's last
 * chunk goes out when the lingering ends.
 */
export function lingeringResponseClass(limits: LingerLimits): typeof ServerResponse {
  class LingeringResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    // Set while the answer is out and the connection waits to close: callbacks of end() calls made meanwhile.
    #lingering: (() => void)[] | undefined;

    // (statusCode, reason?, headers?): named, not a rest parameter, so no array is made per answer.
    override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
      if (bodyStillComing(this.req)) this.shouldKeepAlive = false;
      return super.writeHead(statusCode, reason as never, headers as never);
    }

    // One signature for Node's three overloads of end(): (cb), (chunk, cb), (chunk, encoding, cb).
    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      // The usual answer, to a request that arrived whole: Node's own end(), nothing else made.
      if (this.#lingering === undefined && !bodyStillComing(this.req))
        return super.end(chunk as never, encoding as never, callback as never);
      const [data, dataEncoding, done] = endArguments(chunk, encoding, callback);
      if (this.#lingering) {
        // Ended already: a second end() waits for the first.
        if (done) this.#lingering.push(done);
        return this;
      }
      const waiting: (() => void)[] = done ? [done] : [];
      this.#lingering = waiting;
      if (data !== undefined) {
        // What Node's end(data) would have done: an answer whose headers are not out yet gets its length.
        if (!this.headersSent) this.setHeader('content-length', Buffer.byteLength(data, dataEncoding));
        this.write(data, dataEncoding ?? 'utf8');
      } else if (!this.headersSent) {
        this.setHeader('content-length', 0);
      }
      drainThen(this.req, limits, () =>
        super.end(() => {
          for (const call of waiting) call();
        }),
      );
      return this;
    }
  }
  return LingeringResponse as typeof ServerResponse;
}

/** Whether the request has a body that has not all arrived yet (a bodiless request never lingers). */
function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete || req.destroyed) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

type Chunk = string | Uint8Array;

function endArguments(
  chunk: unknown,
  encoding: unknown,
  callback: unknown,
): [Chunk | undefined, BufferEncoding | undefined, (() => void) | undefined] {
  if (typeof chunk === 'function') return [undefined, undefined, chunk as () => void];
  if (typeof encoding === 'function') return [chunk as Chunk | undefined, undefined, encoding as () => void];
  return [
    (chunk ?? undefined) as Chunk | undefined,
    encoding as BufferEncoding | undefined,
    callback as (() => void) | undefined,
  ];
}

/**
 * Reads `req` to nothing until its body ends, the client goes away or `lingerMs` passes, then calls
 * `close` once. Whoever read the body before gave up on it: their listeners go (as Node's own
 * request dump does), so nothing buffers what arrives now.
 */
function drainThen(req: IncomingMessage, limits: LingerLimits, close: () => void): void {
  req.removeAllListeners('data');
  req.removeAllListeners('readable');
  let discarded = 0;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    req.off('error', finish);
    close();
  };
  const onData = (chunk: Uint8Array) => {
    discarded += chunk.byteLength;
    if (discarded > limits.lingerBytes) {
      // Enough: stop reading. The client can still read the answer until the timer closes.
      req.off('data', onData);
      req.pause();
    }
  };
  const timer = setTimeout(finish, limits.lingerMs);
  timer.unref();
  req.on('data', onData);
  req.on('end', finish);
  req.on('close', finish);
  req.on('error', finish);
  req.resume();
}
