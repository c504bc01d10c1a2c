import type { IncomingMessage } from 'node:http';

/** Who takes a body's chunks; `chunk` may throw to stop the body. */
export interface ChunkSink {
  chunk(bytes: Uint8Array): void;
}

/**
 * An HTTP response as the gateway's session transport reads it, whether it came from `node:http`
 * or from a fetch (an OAuth session's): its status, its headers, and its body chunk by chunk.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A header's value (several joined with `, `), or `undefined`. */
  header(name: string): string | undefined;
  /**
   * Hands each chunk of the body to `sink` until the body ends (resolves) or fails (rejects: the
   * connection broke, or `sink` threw, which also stops the body).
   */
  read(sink: ChunkSink): Promise<void>;
}

/** An answer from `node:http`: its body read with three listeners, and nothing else kept. */
export class NodeAnswer implements HttpAnswer {
  readonly #message: IncomingMessage;

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

  read(sink: ChunkSink): Promise<void> {
    const message = this.#message;
    return new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        message.destroy();
        reject(error);
      };
      message.on('data', (bytes: Buffer) => {
        try {
          sink.chunk(bytes);
        } catch (error) {
          fail(error);
        }
      });
      message.once('error', fail);
      // Closed before its end: the connection broke (as `aborted` says on older Node versions).
      message.once('close', () => {
        if (message.complete) resolve();
        else
          fail(
            Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }),
          );
      });
    });
  }
}

/** An answer from a fetch. */
export class FetchAnswer implements HttpAnswer {
  readonly #response: Response;

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

  async read(sink: ChunkSink): Promise<void> {
    const body = this.#response.body;
    if (body === null) return;
    const reader = body.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) sink.chunk(next.value);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
  }
}
