import { type HttpServerLimits, SERVER_HTTP_LIMITS } from './server-limits.js';

/** What {@link StreamConnections} adjusts: a `node:http` server's connection cap. */
export interface ConnectionCapped {
  maxConnections: number;
}

/** What it watches: a `node:http` response's connection, which emits `close` once. */
export interface ClosingSocket {
  on(event: 'close', listener: () => void): unknown;
}

/**
 * Keeps responses held open as event streams from starving a server's connection cap.
 *
 * A 2025-era host holds one HTTP/1.1 connection open per call in flight (the call's SSE stream,
 * where its question comes), and answers each question with a POST on another connection. With a
 * plain cap of `maxConnections`, a host with 1,000 calls waiting fills the cap with its own streams
 * and the server drops the connections that carry the answers: the calls wait forever. Here each
 * connection that carries a held stream (up to `maxStreams` of them) raises the cap by two: itself,
 * and room for the one that answers it. It keeps that room until it closes, not just while its
 * stream lasts: as calls end, their connections go idle in the client's pool and carry the next
 * answers, so the cap must not fall under them. Idle or short requests alone still get
 * `maxConnections` at most, so a flood of connections is dropped as before; only connections the
 * server chose to hold a stream on (which the endpoint's per-session and per-user budgets bound)
 * make room, until the client or the keep-alive timeout closes them.
 *
 * @example
 * import { createServer } from 'node:http';
 *
 * const server = createServer(httpServerOptions(SERVER_HTTP_LIMITS));
 * const streams = new StreamConnections(server, SERVER_HTTP_LIMITS);
 * server.on('request', (req, res) => {
 *   res.writeHead(200, { 'content-type': 'text/event-stream' });
 *   streams.hold(res.socket); // until it closes, this connection takes no place under maxConnections
 * });
 */
export class StreamConnections {
  readonly #server: ConnectionCapped;
  readonly #base: number;
  readonly #maxStreams: number;
  readonly #counted = new WeakSet<ClosingSocket>();
  #held = 0;

  /** Sets `server.maxConnections` from `limits` (and keeps it up to date from then on). */
  constructor(server: ConnectionCapped, limits: HttpServerLimits) {
    this.#server = server;
    this.#base = limits.maxConnections;
    this.#maxStreams = limits.maxStreams ?? SERVER_HTTP_LIMITS.maxStreams!;
    this.#update();
  }

  /** Connections open now that have carried a held stream. */
  get held(): number {
    return this.#held;
  }

  /**
   * `socket` carries an event stream the server holds open: room is made until the connection
   * closes. A connection already counted is counted once.
   */
  hold(socket: ClosingSocket | null): void {
    if (!socket || this.#counted.has(socket)) return;
    this.#counted.add(socket);
    this.#held++;
    this.#update();
    // One listener for every connection (a socket emits `close` once): no closure, nor `once`
    // wrapper, per held stream.
    socket.on('close', this.#released);
  }

  readonly #released = (): void => {
    this.#held--;
    this.#update();
  };

  #update(): void {
    this.#server.maxConnections = this.#base + 2 * Math.min(this.#held, this.#maxStreams);
  }
}
