import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/client';
import { type EventSink, EventStreamParser, type ServerSentEvent } from './event-stream.js';
import type { BodySink, HttpAnswer } from './http-answer.js';

/** What the streams of a transport tell it. */
export interface StreamOwner {
  deliver(message: JSONRPCMessage): void;
  warn(error: Error): void;
  retry(ms: number): void;
  /** A body of the stream ended (`error` when it failed); the owner decides what comes next. */
  ended(stream: SessionStream, error: unknown): void;
}

/**
 * One event stream of a session: a call's own (a POST's answer), or the session's standalone GET
 * stream, across its resumptions. It parses what comes, tells its owner, and settles the call's
 * `send` when it is over. A held call keeps two open for as long as its person takes, so this is
 * a class told by callbacks, with no closures or promise chain of its own (ARCHITECTURE.md, Memory).
 */
export class SessionStream implements EventSink, BodySink {
  answered = false;
  /** Attempts to reopen it that failed in a row. */
  failed = 0;
  /** The body being read, if any. */
  body: HttpAnswer | undefined;
  readonly #owner: StreamOwner;
  readonly #parser: EventStreamParser;
  #resolve: (() => void) | undefined;
  #reject: ((error: Error) => void) | undefined;

  constructor(
    owner: StreamOwner,
    maxChars: number,
    /** The request whose answer comes on it; none for the standalone stream. */
    readonly requestId: RequestId | undefined,
    readonly signal: AbortSignal | undefined,
    settle?: { readonly resolve: () => void; readonly reject: (error: Error) => void },
  ) {
    this.#owner = owner;
    this.#parser = new EventStreamParser(this, maxChars);
    this.#resolve = settle?.resolve;
    this.#reject = settle?.reject;
  }

  /** The last event id it carried (it is resumed from there). */
  get lastEventId(): string | undefined {
    return this.#parser.lastEventId;
  }

  /** Reads `body` as the stream's next. */
  read(body: HttpAnswer): void {
    this.body = body;
    body.read(this);
  }

  chunk(bytes: Uint8Array): void {
    this.#parser.chunk(bytes);
  }

  end(error?: unknown): void {
    this.body = undefined;
    this.#parser.reset();
    this.#owner.ended(this, error);
  }

  /** The stream is over; its `send` (if any) succeeded. */
  done(): void {
    const resolve = this.#resolve;
    this.#resolve = this.#reject = undefined;
    resolve?.();
  }

  /** The stream is over and failed: its `send` fails with `error` (the standalone stream's owner is told). */
  fail(error: Error): void {
    const reject = this.#reject;
    this.#resolve = this.#reject = undefined;
    if (reject !== undefined) reject(error);
    else this.#owner.warn(error);
  }

  event(event: ServerSentEvent): void {
    if (event.data === '' || event.event !== 'message') return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(event.data));
    } catch (error) {
      this.#owner.warn(
        new Error(
          `The upstream sent an event that is not a JSON-RPC message; it was dropped (${error instanceof Error ? error.name : 'invalid'})`,
          { cause: error },
        ),
      );
      return;
    }
    if (
      this.requestId !== undefined &&
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      message.id === this.requestId
    )
      this.answered = true;
    this.#owner.deliver(message);
  }

  retry(ms: number): void {
    this.#owner.retry(ms);
  }
}
