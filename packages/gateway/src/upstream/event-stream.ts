import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { HttpAnswer } from './http-answer.js';

/** What reading an event stream tells its reader. */
export interface EventStreamHandlers {
  /** One whole event. */
  readonly event: (event: EventSourceMessage) => void;
  /** The server set its reconnection delay (`retry:`), in milliseconds. */
  readonly retry?: (ms: number) => void;
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
 * Reads a Server-Sent Events body to its end, handing on each event as it completes: chunks
 * straight from the connection through a streaming `TextDecoder` into `eventsource-parser`, with
 * no web-streams pipeline in between (a `TextDecoderStream` and a parser stream cost an open
 * stream about 25 KB more, and a held call keeps two open). Nothing is buffered past `maxChars`:
 * a longer event (or line) stops the body and rejects with {@link EventTooLargeError}. Rejects too
 * when the body fails (the connection broke). A handler that throws stops the body and rejects
 * with what it threw.
 */
export async function readEventStream(
  body: Pick<HttpAnswer, 'read'>,
  handlers: EventStreamHandlers,
  maxChars: number,
): Promise<void> {
  const decoder = new TextDecoder();
  let failure: unknown;
  const parser = createParser({
    maxBufferSize: maxChars,
    onEvent: (event) => {
      if (failure !== undefined) return;
      try {
        handlers.event(event);
      } catch (error) {
        failure = error;
      }
    },
    onRetry: (ms) => handlers.retry?.(ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure ??= new EventTooLargeError(maxChars);
    },
  });
  await body.read((bytes) => {
    parser.feed(decoder.decode(bytes, { stream: true }));
    if (failure !== undefined) throw failure;
  });
  parser.feed(decoder.decode());
  if (failure !== undefined) throw failure;
}
