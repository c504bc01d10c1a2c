import type { IncomingMessage, ServerResponse } from 'node:http';
import { startProfiling, stopProfiling } from './profiler.js';

/**
 * The side channel every benchmark server answers beside its MCP endpoint, measured inside the
 * server process so the load generator's cost never mixes in:
 *
 * - `GET /stats` (`?gc=1` collects garbage first): CPU time, memory, running handlers;
 * - `GET /profile/start?interval=<µs>` and `GET /profile/stop` (answers the `.cpuprofile`).
 */

export interface ServerStats {
  /** process.cpuUsage(), microseconds since the process started. */
  readonly cpu: { readonly user: number; readonly system: number };
  /** process.memoryUsage(), bytes. */
  readonly memory: { readonly rss: number; readonly heapUsed: number; readonly external: number };
  /** Tool handlers running right now (on the 2025 eras: questions waiting for an answer). */
  readonly handlersRunning: number;
  /** Connections open now and the most open at once, for a server that {@link watchConnections}. */
  readonly connections?: { readonly open: number; readonly peak: number };
}

let running = 0;
/** Counts what the server holds instead of `running` (a gateway's held upstream calls). */
let countedBy: (() => number) | undefined;
let connections: { open: number; peak: number } | undefined;

/** Counts the connections `server` accepts, for the stats (open now, and the most at once). */
export function watchConnections(server: {
  on(
    event: 'connection',
    listener: (socket: { once(event: 'close', fn: () => void): unknown }) => void,
  ): unknown;
}): void {
  const counts = { open: 0, peak: 0 };
  connections = counts;
  server.on('connection', (socket) => {
    counts.peak = Math.max(counts.peak, ++counts.open);
    socket.once('close', () => {
      counts.open--;
    });
  });
}

/** Counts a tool handler as running until `work` settles. */
export async function countRunning<T>(work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}

/** Reports `count()` as the handlers running, for a server whose waiting work is not a bench tool (the gateway). */
export function countRunningWith(count: () => number): void {
  countedBy = count;
}

/** The side channel's JSON answer for `url`, or `undefined` when the path is not one of its routes. */
export function sideChannel(url: URL): Promise<string> | undefined {
  switch (url.pathname) {
    case '/stats':
      return Promise.resolve(statsJson(url));
    case '/profile/start':
      return startProfiling(Number(url.searchParams.get('interval') ?? 250)).then(() => '{}');
    case '/profile/stop':
      return stopProfiling();
    default:
      return undefined;
  }
}

/** For node:http servers: answers `req` if it is a side-channel route (then `true`), else `false`. */
export function answerSideChannel(req: IncomingMessage, res: ServerResponse): boolean {
  const answer = sideChannel(new URL(req.url ?? '/', 'http://127.0.0.1'));
  if (!answer) return false;
  void answer.then(
    (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    (error: Error) => res.writeHead(500).end(error.message),
  );
  return true;
}

/**
 * The stats as JSON text. `?gc=1` runs a full garbage collection first (servers are started with
 * --expose-gc), so memory readings show what is retained rather than what is not yet collected.
 */
function statsJson(url: URL): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (url.searchParams.get('gc') === '1' && gc) {
    gc();
    gc();
  }
  const { rss, heapUsed, external } = process.memoryUsage();
  const stats: ServerStats = {
    cpu: process.cpuUsage(),
    memory: { rss, heapUsed, external },
    handlersRunning: countedBy?.() ?? running,
    ...(connections && { connections: { ...connections } }),
  };
  return JSON.stringify(stats);
}
