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
  body(): AsyncIterable<Uint8Array> | null;
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

/** An open `text/event-stream` response: write whole SSE frames, then end it. */
export interface EventOutlet {
  /** Writes one or more complete SSE frames; nothing happens once the client is gone. */
  write(frames: string): void;
  end(): void;
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
