import { Agent, type IncomingHttpHeaders, request } from 'node:http';

/** One HTTP request of the load driver. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  /** Path and query, e.g. `/mcp` or `/connect/abc`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What came back: a response, or a transport failure (status 0). */
export interface HttpReply {
  /** 0 when no response arrived (connection reset, refused, timed out). */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Why no response arrived. */
  readonly error?: string;
}

/**
 * Called after the first half of a POST body went out and before the rest: the moment a request is
 * inside a replica but not finished (the fleet kills a replica here).
 */
export type MidRequestHook = () => Promise<void>;

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Sends one request to `origin` (keep-alive), never throwing: failures come back as status 0.
 * `via`: the connection pool (default: 4 sockets, for the one-at-a-time sequence).
 */
export function send(
  origin: string,
  call: HttpCall,
  midRequest?: MidRequestHook,
  via: Agent = agent,
): Promise<HttpReply> {
  const url = new URL(call.path, origin);
  return new Promise((resolve) => {
    let settled = false;
    const done = (reply: HttpReply) => {
      if (settled) return;
      settled = true;
      resolve(reply);
    };
    const body = call.body === undefined ? undefined : Buffer.from(call.body);
    const req = request(
      url,
      {
        agent: via,
        method: call.method,
        headers: { ...call.headers, ...(body && { 'content-length': String(body.length) }) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', (error) => done({ status: 0, headers: {}, body: '', error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => done({ status: 0, headers: {}, body: '', error: error.message }));
    if (!body) {
      req.end();
      return;
    }
    if (!midRequest) {
      req.end(body);
      return;
    }
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half));
    void midRequest().then(() => {
      // The replica may be gone and nginx may have answered already: the rest goes nowhere then.
      if (!req.destroyed) req.end(body.subarray(half));
    });
  });
}
