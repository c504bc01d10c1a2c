import type { IncomingMessage } from 'node:http';
import { readCappedBody } from '@parley/core/node';

/** The largest request body the lab reads (tool arguments included). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request body read as JSON, or the reason it could not be. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/** Reads a JSON request body of at most {@link MAX_BODY_BYTES}. Never throws. */
export async function readJson(request: IncomingMessage): Promise<JsonBody> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return { ok: false, status: 415, message: 'Send the body as JSON with Content-Type: application/json.' };
  }
  const read = await readCappedBody(request, MAX_BODY_BYTES, request.headers['content-length']);
  if (!read.ok) {
    return read.reason === 'too-large'
      ? { ok: false, status: 413, message: `The body is larger than ${MAX_BODY_BYTES} bytes.` }
      : { ok: false, status: 400, message: read.message };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(read.bytes)) };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON.' };
  }
}
