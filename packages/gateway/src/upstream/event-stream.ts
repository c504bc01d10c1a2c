import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/** Who is told what an event stream carries. */
export interface EventSink {
  /** One whole event. */
  event(event: EventSourceMessage): void;
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

/**
 * Parses a Server-Sent Events body as its chunks come: a streaming `TextDecoder` into
 * `eventsource-parser`, with no web-streams pipeline in between (a `TextDecoderStream` and a
 * parser stream cost an open stream about 25 KB more, and a held call keeps two open). Nothing
 * is buffered past `maxChars`: a longer event (or line) makes `chunk` throw
 * {@link EventTooLargeError}; a sink that throws makes `chunk` throw what it threw. `reset` makes
 * it ready for another body (a stream resumed).
 */
export class EventStreamParser {
  readonly #parser: EventSourceParser;
  readonly #decoder = new TextDecoder();
  #failure: unknown;

  constructor(sink: EventSink, maxChars: number) {
    this.#parser = createParser({
      maxBufferSize: maxChars,
      onEvent: (event) => {
        if (this.#failure !== undefined) return;
        try {
          sink.event(event);
        } catch (error) {
          this.#failure = error;
        }
      },
      onRetry: (ms) => sink.retry(ms),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.#failure ??= new EventTooLargeError(maxChars);
      },
    });
  }

  /** Takes the body's next chunk. */
  chunk(bytes: Uint8Array): void {
    this.#parser.feed(this.#decoder.decode(bytes, { stream: true }));
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Forgets what is left of the last body (an event it did not finish is dropped, as SSE says). */
  reset(): void {
    this.#parser.reset();
    this.#decoder.decode();
    this.#failure = undefined;
  }
}
