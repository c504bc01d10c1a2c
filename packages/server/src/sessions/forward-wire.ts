/**
 * The messages replicas exchange over Redis pub/sub to pass an HTTP request for a 2025-era session
 * to the replica that holds it, and to stream its response back. Each replica listens on its own
 * channel; bytes travel as base64 so chunk boundaries never split a character.
 */
export type ForwardMessage =
  | {
      readonly t: 'req';
      readonly id: string;
      /** The replica waiting for the response (its channel). */
      readonly from: string;
      readonly method: string;
      readonly url: string;
      readonly headers: readonly (readonly [string, string])[];
      readonly body?: string;
      /**
       * When the sender stops waiting (ms since the epoch): a request that arrives later (e.g. held
       * in a queue while Redis restarted) is dropped, never served after its client was told it failed.
       */
      readonly until: number;
    }
  | { readonly t: 'cancel'; readonly id: string }
  | {
      readonly t: 'head';
      readonly id: string;
      readonly status: number;
      readonly headers: readonly (readonly [string, string])[];
      readonly hasBody: boolean;
    }
  | { readonly t: 'data'; readonly id: string; readonly seq: number; readonly chunk: string }
  | { readonly t: 'end'; readonly id: string; readonly seq: number }
  | { readonly t: 'fail'; readonly id: string; readonly message: string };

// Hop-by-hop and length headers belong to one connection, not to the request passed on.
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

/** A request's or response's headers, fit to pass on. */
export function headersToPass(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.has(name)) pairs.push([name, value]);
  });
  return pairs;
}

/** A message read from the channel, or `undefined` when it is not one of ours. */
export function parseForwardMessage(text: string): ForwardMessage | undefined {
  try {
    const message = JSON.parse(text) as { t?: unknown; id?: unknown };
    return typeof message === 'object' &&
      message !== null &&
      typeof message.t === 'string' &&
      typeof message.id === 'string'
      ? (message as ForwardMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}
