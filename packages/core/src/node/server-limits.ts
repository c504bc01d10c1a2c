import type { ServerResponse } from 'node:http';
import { lingeringResponseClass } from './lingering-close.js';

/**
 * What an HTTP listener of Parley or the demo tolerates from one connection. A slow-loris client
 * (headers or a body trickled a byte at a time) is cut off at the timeouts, and a flood of
 * connections past `maxConnections` is dropped as it arrives. A body it refuses unread (413) is
 * answered, then read and thrown away for a while (`lingerMs`, `lingerBytes`) so the client can read
 * why before the connection closes.
 */
export interface HttpServerLimits {
  /**
   * Time to receive a request's headers, counted from when the connection opened for its first
   * request. Default 60 s (a client with many calls in flight may open a connection well before it
   * writes on it).
   */
  readonly headersTimeoutMs: number;
  /**
   * Time to receive a whole request, body included (the response may stream for longer). Default
   * 120 s, where Node's own default holds a trickled body for 300 s.
   */
  readonly requestTimeoutMs: number;
  /**
   * Open connections at most, not counting those held by event streams (see `maxStreams`); more
   * are closed on arrival.
   */
  readonly maxConnections: number;
  /**
   * After answering a request whose body it did not read (a 413), the longest the listener keeps the
   * connection open so the client can read the answer. Default 2 s; it closes sooner when the client
   * stops sending or closes.
   */
  readonly lingerMs?: number;
  /** How much of such a body the listener reads and discards meanwhile (then it only waits). Default 64 MiB. */
  readonly lingerBytes?: number;
  /**
   * Connections that carry a response held open as an event stream (a 2025-era call waiting for
   * its answer, a listen stream), each bringing room for two connections beyond `maxConnections`
   * until it closes: itself, and the one that answers it (see `StreamConnections`). Default 8192; 0
   * counts them against `maxConnections` like any other.
   */
  readonly maxStreams?: number;
}

/** Defaults for a server meant for many clients (Parley's `listen`, the demo store). */
export const SERVER_HTTP_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 120_000,
  maxConnections: 1024,
  lingerMs: 2000,
  lingerBytes: 64 * 1024 * 1024,
  maxStreams: 8192,
};

/** The subset of `node:http`'s `ServerOptions` that {@link httpServerOptions} sets. */
export interface HttpListenerOptions {
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly connectionsCheckingInterval: number;
  readonly keepAliveTimeout: number;
  /** Closes a connection gently after a refusal sent before the body arrived (see `lingerMs`). */
  readonly ServerResponse: typeof ServerResponse;
}

/**
 * `node:http` `createServer` options for `limits`; set `server.maxConnections = limits.maxConnections`
 * on the server too. (Node's defaults hold a slow request body for 300 s and never cap connections.)
 *
 * @example
 * import { createServer } from 'node:http';
 *
 * const limits = { ...SERVER_HTTP_LIMITS, maxConnections: 64 };
 * const server = createServer(httpServerOptions(limits), (request, response) => response.end('ok'));
 * server.maxConnections = limits.maxConnections;
 */
export function httpServerOptions(limits: HttpServerLimits): HttpListenerOptions {
  const { headersTimeoutMs, requestTimeoutMs, maxConnections } = limits;
  const lingerMs = limits.lingerMs ?? SERVER_HTTP_LIMITS.lingerMs!;
  const lingerBytes = limits.lingerBytes ?? SERVER_HTTP_LIMITS.lingerBytes!;
  if (!(headersTimeoutMs > 0 && requestTimeoutMs >= headersTimeoutMs)) {
    throw new RangeError(
      `HTTP limits: headersTimeoutMs (${headersTimeoutMs}) must be positive and at most requestTimeoutMs (${requestTimeoutMs}).`,
    );
  }
  if (!(Number.isInteger(maxConnections) && maxConnections > 0)) {
    throw new RangeError(`HTTP limits: maxConnections must be a positive integer (got ${maxConnections}).`);
  }
  if (!(lingerMs >= 0 && lingerBytes >= 0)) {
    throw new RangeError(
      `HTTP limits: lingerMs (${lingerMs}) and lingerBytes (${lingerBytes}) must be zero or more.`,
    );
  }
  const { maxStreams } = limits;
  if (maxStreams !== undefined && !(Number.isInteger(maxStreams) && maxStreams >= 0)) {
    throw new RangeError(`HTTP limits: maxStreams must be 0 or a positive integer (got ${maxStreams}).`);
  }
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    // How often Node checks the two timeouts (its default, 30 s, would stretch a 10 s limit to 40 s).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    keepAliveTimeout: 5000,
    ServerResponse: lingeringResponseClass({ lingerMs, lingerBytes }),
  };
}
