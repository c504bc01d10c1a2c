/** What reading a request body under a byte cap gave. */
export type CappedBody =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: 'too-large' | 'unreadable'; readonly message: string };

/**
 * Reads a request body of at most `maxBytes`, whatever its framing: a declared `Content-Length` over
 * the cap is refused unread, and a chunked (or lying) body is cut off as soon as it passes the cap,
 * so memory never holds more than `maxBytes` of it.
 *
 * On refusal the source is left as it is (not cancelled, not destroyed): the caller answers 413, and
 * a listener made with {@link httpServerOptions} reads the rest to nothing for a while before it
 * closes (destroying the request first would lose the answer).
 * Every HTTP surface of Parley and the demo reads bodies through this one function.
 *
 * @example
 * async function handle(request: Request): Promise<Response> {
 *   const read = await readCappedBody(request.body, 64 * 1024, request.headers.get('content-length'));
 *   if (!read.ok) return new Response(read.message, { status: read.reason === 'too-large' ? 413 : 400 });
 *   return new Response(`${read.bytes.length} bytes`);
 * }
 */
export async function readCappedBody(
  source: AsyncIterable<Uint8Array> | null | undefined,
  maxBytes: number,
  declaredLength?: string | null,
): Promise<CappedBody> {
  const tooLarge = bodyTooLarge(maxBytes);
  if (declaredLength !== undefined && declaredLength !== null) {
    const declared = Number(declaredLength);
    if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  }
  if (!source) return { ok: true, bytes: new Uint8Array(0) };
  const parts: Uint8Array[] = [];
  let size = 0;
  // Iterated by hand: leaving a for-await early would cancel the source, and a Node request
  // cancelled that way takes its socket (and the 413) with it.
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { done, value } = await iterator.next();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return tooLarge;
      parts.push(value);
    }
  } catch {
    return BODY_UNREADABLE;
  }
  return { ok: true, bytes: parts.length === 1 ? parts[0]! : concat(parts, size) };
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** The refusal of a body over `maxBytes` (one wording for every reader of bodies). */
export function bodyTooLarge(maxBytes: number): CappedBody {
  return {
    ok: false,
    reason: 'too-large',
    message: `The request body is larger than ${maxBytes} bytes; send a smaller one.`,
  };
}

/** The refusal of a body that did not arrive whole. */
export const BODY_UNREADABLE: CappedBody = {
  ok: false,
  reason: 'unreadable',
  message: 'The request body could not be read to its end.',
};
