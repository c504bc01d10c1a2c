/** One event of a Server-Sent Events stream. */
export interface ServerSentEvent {
  /** Its type: `message` unless it named another. */
  readonly event: string;
  readonly data: string;
}

/** Who is told what an event stream carries. */
export interface EventSink {
  /** One whole event. */
  event(event: ServerSentEvent): void;
  /** The server set its reconnection delay (`retry:`), in milliseconds. */
  retry(ms: number): void;
}

/** An upstream sent an event longer than the gateway takes. */
export class EventTooLargeError extends Error {
  constructor(readonly maxChars: number) {
    super(
      `the upstream sent an event of more than ${maxChars} characters (the most the gateway reads of one message); the stream was closed, so shorten what the upstream sends at once`,
    );
    this.name = 'EventTooLargeError';
  }
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const DIGITS = /^\d+$/;

/**
 * Parses a Server-Sent Events body as its chunks come, as the HTML standard's "interpreting an
 * event stream" says: lines ended by CR, LF or CRLF (split across chunks or not), `data`, `event`,
 * `id` and `retry` fields, comments, one event per blank line. It is a class with no closures (a
 * held call keeps two streams open for as long as its person takes, so what each holds counts:
 * this costs about 150 bytes where `eventsource-parser`'s closures cost about 880; see
 * ARCHITECTURE.md, Memory). Nothing is buffered past `maxChars`: a longer line or event makes
 * `chunk` throw {@link EventTooLargeError}. What the sink throws, `chunk` throws.
 */
export class EventStreamParser {
  readonly #sink: EventSink;
  readonly #maxChars: number;
  readonly #decoder = new TextDecoder();
  /** The start of a line whose end has not come yet. */
  #pending = '';
  #data = '';
  #hasData = false;
  #type = '';
  /** The last chunk ended with CR: an LF that starts the next one ends no other line. */
  #afterCr = false;
  #lastEventId: string | undefined;

  constructor(sink: EventSink, maxChars: number) {
    this.#sink = sink;
    this.#maxChars = maxChars;
  }

  /** The last event id the stream named (kept across bodies: a stream is resumed from it). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Takes the body's next chunk. */
  chunk(bytes: Uint8Array): void {
    const text = this.#decoder.decode(bytes, { stream: true });
    let start = this.#afterCr && text.charCodeAt(0) === LF ? 1 : 0;
    this.#afterCr = false;
    for (let at = start; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code !== LF && code !== CR) continue;
      const line = this.#pending + text.slice(start, at);
      this.#pending = '';
      if (code === CR) {
        if (at + 1 === text.length) this.#afterCr = true;
        else if (text.charCodeAt(at + 1) === LF) at++;
      }
      start = at + 1;
      this.#line(line);
    }
    this.#pending += text.slice(start);
    this.#check();
  }

  /** Forgets what is left of the last body (an event it did not finish is dropped, as SSE says). */
  reset(): void {
    this.#decoder.decode();
    this.#pending = '';
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
    this.#afterCr = false;
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value =
      colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (field) {
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        this.#check();
        return;
      case 'event':
        this.#type = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        return;
      case 'retry':
        if (DIGITS.test(value)) this.#sink.retry(Number(value));
        return;
    }
  }

  #dispatch(): void {
    const event = this.#type || 'message';
    const data = this.#data;
    const had = this.#hasData;
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
    if (had) this.#sink.event({ event, data });
  }

  #check(): void {
    if (this.#pending.length + this.#data.length > this.#maxChars) {
      this.reset();
      throw new EventTooLargeError(this.#maxChars);
    }
  }
}
