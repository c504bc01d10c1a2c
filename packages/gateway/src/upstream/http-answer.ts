import type { IncomingMessage } from 'node:http';

/** Who takes a body: each chunk (`chunk` may throw to stop the body), then its end, once. */
export interface BodySink {
  chunk(bytes: Uint8Array): void;
  /** The body ended (no error), or failed: the connection broke, `chunk` threw, or it was closed here. */
  end(error?: unknown): void;
}

/**
 * An HTTP response as the gateway's session transport reads it, whether it came from `node:http`
 * or from a fetch (an OAuth session's): its status, its headers, and its body chunk by chunk,
 * told to a sink rather than through promises (a held call reads two bodies for as long as its
 * person takes; see ARCHITECTURE.md, Memory).
 */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A header's value (several joined with `, `), or `undefined`. */
  header(name: string): string | undefined;
  /** Hands the body to `sink`; once per answer. */
  read(sink: BodySink): void;
  /** Stops the body (the sink is told, with an error) and lets its connection go. */
  close(): void;
}

/** An answer from `node:http`. */
export class NodeAnswer implements HttpAnswer {
  readonly #message: IncomingMessage;
  #sink: BodySink | undefined;

  constructor(message: IncomingMessage) {
    this.#message = message;
  }

  get status(): number {
    return this.#message.statusCode ?? 502;
  }

  get statusText(): string {
    return this.#message.statusMessage ?? '';
  }

  header(name: string): string | undefined {
    const value = this.#message.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  read(sink: BodySink): void {
    this.#sink = sink;
    const message = this.#message;
    message.on('data', (bytes: Buffer) => {
      try {
        sink.chunk(bytes);
      } catch (error) {
        this.#end(error);
      }
    });
    // One listener for both: closed before its end, the connection broke (as `aborted` says on
    // older Node versions).
    const ended = (error?: Error) =>
      this.#end(
        error ??
          (message.complete
            ? undefined
            : Object.assign(new Error('the connection closed before the body ended'), {
                code: 'ECONNRESET',
              })),
      );
    message.once('error', ended);
    message.once('close', ended);
  }

  close(): void {
    this.#end(new Error('the transport closed the stream'));
  }

  #end(error: unknown): void {
    const sink = this.#sink;
    this.#sink = undefined;
    if (error !== undefined) this.#message.destroy();
    sink?.end(error);
  }
}

/** An answer from a fetch. */
export class FetchAnswer implements HttpAnswer {
  readonly #response: Response;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(response: Response) {
    this.#response = response;
  }

  get status(): number {
    return this.#response.status;
  }

  get statusText(): string {
    return this.#response.statusText;
  }

  header(name: string): string | undefined {
    return this.#response.headers.get(name) ?? undefined;
  }

  read(sink: BodySink): void {
    const body = this.#response.body;
    if (body === null) sink.end();
    else {
      this.#reader = body.getReader();
      void this.#pump(this.#reader, sink);
    }
  }

  close(): void {
    void this.#reader?.cancel().catch(() => {});
  }

  async #pump(reader: ReadableStreamDefaultReader<Uint8Array>, sink: BodySink): Promise<void> {
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) sink.chunk(next.value);
    } catch (error) {
      await reader.cancel().catch(() => {});
      return sink.end(error);
    }
    sink.end();
  }
}
