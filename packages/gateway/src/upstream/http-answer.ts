import type { IncomingMessage } from 'node:http';

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
   * Hands each chunk of the body to `chunk` until the body ends (resolves) or fails (rejects: the
   * connection broke, or `chunk` threw, which also stops the body).
   */
  read(chunk: (bytes: Uint8Array) => void): Promise<void>;
}

/** An answer from `node:http`. */
export function answerOfMessage(message: IncomingMessage): HttpAnswer {
  return {
    status: message.statusCode ?? 502,
    statusText: message.statusMessage ?? '',
    header: (name) => {
      const value = message.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    read: (chunk) =>
      new Promise<void>((resolve, reject) => {
        if (message.complete && message.readableEnded) return resolve();
        const fail = (error: unknown) => {
          message.destroy();
          reject(error);
        };
        message.on('data', (bytes: Buffer) => {
          try {
            chunk(bytes);
          } catch (error) {
            fail(error);
          }
        });
        message.once('end', resolve);
        message.once('error', fail);
        // Closed without its end: the connection broke (as `aborted` says on older Node versions).
        message.once('close', () => {
          if (!message.complete)
            fail(
              Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }),
            );
        });
      }),
  };
}

/** An answer from a fetch. */
export function answerOfResponse(response: Response): HttpAnswer {
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name) ?? undefined,
    read: async (chunk) => {
      const body = response.body;
      if (body === null) return;
      const reader = body.getReader();
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) chunk(next.value);
      } catch (error) {
        await reader.cancel().catch(() => {});
        throw error;
      }
    },
  };
}
