import type { IncomingMessage } from 'node:http';
import { BODY_UNREADABLE, bodyTooLarge, type CappedBody } from '@parley/core/node';

/**
 * Reads a node:http request's body under a byte cap, with plain listeners that go once it is read:
 * no async iterator, no pause and resume per chunk (a JSON-RPC request is one chunk, nearly always).
 * A declared `Content-Length` over the cap is refused unread; a body that grows past the cap is
 * refused as soon as it does, and the request is left paused with nothing of it held (a listener made
 * with `httpServerOptions` then reads the rest to nothing before it closes, so the 413 is read).
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(bodyTooLarge(maxBytes));
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const settle = (result: CappedBody) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onEnd);
      req.off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.pause();
        parts.length = 0;
        settle(bodyTooLarge(maxBytes));
        return;
      }
      parts.push(chunk);
    };
    const onEnd = () =>
      settle(
        req.complete
          ? { ok: true, bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, size) }
          : BODY_UNREADABLE,
      );
    const onError = () => settle(BODY_UNREADABLE);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onEnd);
    req.on('error', onError);
  });
}
