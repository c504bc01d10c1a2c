import type { CappedBody } from '@parley/core/node';

/** One HTTP request, from whichever server runtime received it (node:http or a fetch handler). */
export interface HttpExchange {
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  /**
   * The peer's network address (what per-address budgets of anonymous callers count by), when
   * the runtime knows it.
   */
  readonly remoteAddress: string | undefined;
  header(name: string): string | undefined;
  /**
   * Reads the body, at most `maxBytes` of it: a longer one is refused (`too-large`) as soon as that
   * is known, with no more than the cap held.
   */
  readBody(maxBytes: number): Promise<CappedBody>;
  /** Registers what to do when the client goes away before the response ended. */
  onAbort(listener: () => void): void;
  /** The request as a web `Request` (built only when needed: `authenticate` and 2025 sessions). */
  webRequest(body?: Uint8Array): Request;
}

/** How an answer goes back, in whichever runtime. */
export interface HttpResponder {
  json(status: number, body: unknown): void;
  empty(status: number): void;
  /** Starts a 200 `text/event-stream` response; write messages, then `null` to end it. */
  openStream(): (message: unknown | null) => void;
  /**
   * Starts a 200 `text/event-stream` response with these extra headers, for a writer that frames
   * its own events (ids, priming, comments).
   */
  eventStream(headers: Readonly<Record<string, string>>): EventOutlet;
  web(response: Response): Promise<void>;
}

/**
 * An open `text/event-stream` response: write whole SSE frames, then end it. It guards itself
 * against a client that reads slowly or not at all (see {@link SlowReaderLimits}): such a client's
 * connection is dropped, as if the network had, and a 2025 client resumes with `Last-Event-ID`.
 */
export interface EventOutlet {
  /**
   * Writes one or more complete SSE frames; nothing happens once the client is gone. Answers false
   * when the client is not keeping up: the frames are queued, and a writer that can wait (a replay)
   * waits for {@link drained} before writing more.
   */
  write(frames: string): boolean;
  /** Resolves true once everything queued went out to the network, false if the connection closed first. */
  drained(): Promise<boolean>;
  end(): void;
  /** Drops the connection now, with whatever is still queued for it (a superseded or stuck stream). */
  abort(): void;
}

/** What an event stream tolerates from a client that does not read what it is sent. */
export interface SlowReaderLimits {
  /**
   * How long queued frames may wait without the client taking any of them before the connection is
   * dropped, in milliseconds.
   */
  readonly writeTimeoutMs: number;
  /** Bytes that may pile up behind a client that is not keeping up before the connection is dropped. */
  readonly maxQueuedBytes: number;
}

/** 30 seconds without progress, 1 MiB behind a full socket. */
export const SLOW_READER_LIMITS: SlowReaderLimits = { writeTimeoutMs: 30_000, maxQueuedBytes: 1024 * 1024 };

/** The limits an endpoint's options ask for, checked, over the defaults. */
export function slowReaderLimits(options: Partial<SlowReaderLimits> = {}): SlowReaderLimits {
  const limits = { ...SLOW_READER_LIMITS, ...options };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1)
      throw new TypeError(`eventStreams.${name} must be a whole number of at least 1 (got ${value}).`);
  }
  return limits;
}

/** The headers of every event stream (no caching; nginx must not buffer it). */
export function eventStreamHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
}

/** One server-sent event carrying a JSON-RPC message (its JSON text), with its event id if it has one. */
export function sseEvent(data: string, eventId?: string): string {
  return eventId === undefined
    ? `event: message\ndata: ${data}\n\n`
    : `event: message\nid: ${eventId}\ndata: ${data}\n\n`;
}

/** What `openStream` gives: write whole messages to an event stream, then `null` to end it. */
export function messageWriter(outlet: EventOutlet): (message: unknown | null) => void {
  return (message) => {
    if (message === null) outlet.end();
    else outlet.write(sseEvent(JSON.stringify(message)));
  };
}
