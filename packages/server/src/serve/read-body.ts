/** What reading a JSON-RPC POST body gave. */
export type BodyRead =
  | { readonly ok: true; readonly body: unknown; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: number; readonly message: string };

import { nestsDeeperThan } from './json-depth.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * How deep a request's JSON may nest. MCP messages need a handful of levels and tool arguments
 * rarely a dozen; far deeper input is an attack on code that walks it recursively (sealing a
 * state canonicalises the arguments).
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Reads and parses a request body under a byte limit: a declared Content-Length over the limit is
 * refused unread, a stream that grows past it is cut off, invalid UTF-8, invalid JSON and JSON
 * nested deeper than {@link MAX_JSON_DEPTH} levels are refused with a JSON-RPC parse error.
 */
export async function readJsonBody(
  chunks: AsyncIterable<Uint8Array> | null,
  contentLength: string | undefined,
  maxBytes: number,
): Promise<BodyRead> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32600,
    message: `Request body is larger than ${maxBytes} bytes; send smaller requests.`,
  } as const;
  const declared = Number(contentLength);
  if (contentLength !== undefined && Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  const parts: Uint8Array[] = [];
  let size = 0;
  if (chunks) {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > maxBytes) return tooLarge;
      parts.push(chunk);
    }
  }
  const bytes = parts.length === 1 ? parts[0]! : concat(parts, size);
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
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: `Parse error: the request body nests JSON more than ${MAX_JSON_DEPTH} levels deep; send flatter data.`,
    };
  }
  try {
    return { ok: true, body: JSON.parse(text), bytes };
  } catch {
    return {
      ok: false,
      status: 400,
      code: -32700,
      message: 'Parse error: the request body is not valid JSON.',
    };
  }
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
