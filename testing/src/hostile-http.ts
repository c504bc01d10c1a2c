import { readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { SETTLE_TIMEOUT_MS } from './test-waits.js';

/** What a server did with a hostile request sent over a raw socket. */
export interface RawOutcome {
  /** The status of the response, if one came. */
  readonly status: number | undefined;
  /** Body bytes written before the client saw the answer's head, a reset or a close. */
  readonly bytesSent: number;
  /** How it ended: the server answered, reset the connection (EPIPE, ECONNRESET) or closed it unanswered. */
  readonly ending: 'answered' | 'reset' | 'closed';
  /** Time until the server answered or closed the connection. */
  readonly ms: number;
}

interface RawRequest {
  /** e.g. `http://127.0.0.1:4100/signin` */
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

function open(url: URL): Socket {
  return createConnection({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
}

function head(request: RawRequest, framing: Record<string, string>): string {
  const url = new URL(request.url);
  const headers = { host: url.host, ...request.headers, ...framing };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${request.method ?? 'POST'} ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Runs a raw exchange until the server answers or closes; `pump` writes the body. */
function exchange(
  request: RawRequest,
  framing: Record<string, string>,
  pump: (socket: Socket, sent: (bytes: number) => void, done: () => boolean) => Promise<void>,
): Promise<RawOutcome> {
  const url = new URL(request.url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = open(url);
    let bytesSent = 0;
    let finished = false;
    let received = '';
    const finish = (ending: RawOutcome['ending']) => {
      if (finished) return;
      finished = true;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({
        status: match ? Number(match[1]) : undefined,
        bytesSent,
        ending,
        ms: Date.now() - started,
      });
      socket.destroy();
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (received.includes('\r\n\r\n')) finish('answered');
    });
    socket.on('close', () => finish('closed'));
    socket.on('error', () => finish('reset'));
    socket.once('connect', () => {
      socket.write(head(request, framing));
      void pump(
        socket,
        (bytes) => {
          bytesSent += bytes;
        },
        () => finished,
      ).catch(() => finish('reset'));
    });
  });
}

/**
 * Sends a chunked body of up to `totalBytes` (no Content-Length, so a reader that trusts only the
 * declared length reads it all) as fast as the server takes it, and stops when the server answers.
 */
export function sendChunkedFlood(
  request: RawRequest,
  totalBytes: number,
  chunkBytes = 64 * 1024,
): Promise<RawOutcome> {
  const chunk = Buffer.concat([
    Buffer.from(`${chunkBytes.toString(16)}\r\n`),
    Buffer.alloc(chunkBytes, 'a'),
    Buffer.from('\r\n'),
  ]);
  return exchange(request, { 'transfer-encoding': 'chunked' }, async (socket, sent, done) => {
    for (let total = 0; total < totalBytes && !done(); total += chunkBytes) {
      const flushed = socket.write(chunk);
      sent(chunkBytes);
      if (!flushed) {
        await new Promise<void>((resolve) => {
          const go = () => {
            socket.off('drain', go);
            socket.off('close', go);
            resolve();
          };
          socket.on('drain', go);
          socket.on('close', go);
        });
      }
    }
    if (!done()) socket.write('0\r\n\r\n');
  });
}

/**
 * Declares a body of `declaredBytes` and trickles it one byte every `everyMs` (a slow-loris body);
 * gives up after `maxMs`. A server with a request timeout answers 408 or closes the connection.
 */
export function sendSlowBody(
  request: RawRequest,
  { declaredBytes = 1000, everyMs = 100, maxMs = 20_000 } = {},
): Promise<RawOutcome> {
  return exchange(request, { 'content-length': String(declaredBytes) }, async (socket, sent, done) => {
    const deadline = Date.now() + maxMs;
    while (!done() && Date.now() < deadline) {
      socket.write('a');
      sent(1);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      // Write next only after the event loop has read what arrived meanwhile: a write that meets a
      // closed connection destroys the socket at once, with the server's answer still unread in it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    socket.destroy();
  });
}

/**
 * Opens `count` idle connections to `url`'s host and port; each resolves once connected.
 * Close them with `socket.destroy()`.
 */
export async function openIdleConnections(url: string, count: number): Promise<Socket[]> {
  const target = new URL(url);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = open(target);
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
}

/**
 * Waits until `server` counts `count` open connections: a client's socket connects once the kernel
 * accepted it, before the server took it (and counted it against `maxConnections`) or saw it close.
 */
export async function connectionsReach(
  server: { getConnections(callback: (error: Error | null, count: number) => void): unknown },
  count: number,
  timeoutMs = SETTLE_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
    if (open === count) return;
    if (Date.now() > deadline) {
      throw new Error(`The server has ${open} open connections, not ${count}, after ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A process's resident memory now, in MiB (Linux `/proc`). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kib / 1024;
}

/** A process's peak resident memory so far, in MiB (Linux `/proc`). */
export function peakResidentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kib / 1024;
}

/**
 * How a server refused a flood, in words a test can match: `413` when the client read that answer,
 * `reset past the cap` when the connection was reset (or closed) unanswered after more than
 * `capBytes` were sent, else what happened instead.
 */
export function howRefused(outcome: RawOutcome, capBytes: number): string {
  if (outcome.status !== undefined) return String(outcome.status);
  const past = outcome.bytesSent > capBytes;
  return past
    ? 'reset past the cap'
    : `${outcome.ending} unanswered after ${outcome.bytesSent} bytes (cap ${capBytes})`;
}

/**
 * The most a client can write to a loopback connection that nobody reads: its send buffer and the
 * peer's receive buffer at their largest (Linux `tcp_wmem`, `tcp_rmem`). A server that stops
 * reading at its cap has answered before the client got further past it than this.
 */
export function socketBufferBytes(): number {
  const largest = (file: string) => Number(readFileSync(file, 'utf8').trim().split(/\s+/)[2]);
  return largest('/proc/sys/net/ipv4/tcp_wmem') + largest('/proc/sys/net/ipv4/tcp_rmem');
}
