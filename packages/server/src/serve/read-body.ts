/** What reading a JSON-RPC POST body gave. */
export type BodyRead =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: number; readonly message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses a request body under a byte limit: a declared Content-Length over the limit is
 * refused unread, a stream that grows past it is cut off, invalid UTF-8 and invalid JSON are
 * refused with a JSON-RPC parse error.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32600,
    message: `Request body is larger than ${maxBytes} bytes; send smaller requests (answers belong in forms, files do not).`,
  } as const;
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge;
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: 'Parse error: the request body is not valid UTF-8.',
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: 'Parse error: the request body is not valid JSON (or is nested too deeply).',
    };
  }
}
