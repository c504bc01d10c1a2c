import type { IncomingMessage } from 'node:http';

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
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        return { ok: false, status: 413, message: `The body is larger than ${MAX_BODY_BYTES} bytes.` };
      }
      chunks.push(chunk as Buffer);
    }
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON.' };
  }
}
