import type { JSONRPCNotification, RequestId } from '@modelcontextprotocol/server';

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
export function requestIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/**
 * The response of a 2025-era POST, watched through ONE wrapper stream (each pending call holds its
 * response open, so every stream layer counts per pending question):
 * - its requests are cancelled if the client drops the stream before it ends: the client went
 *   away, and without this a handler waiting on a question it will never answer would hold it
 *   until `questionTimeoutMs`. With it, the handler's signal aborts as if the client had sent
 *   `notifications/cancelled`, and the question is freed. A stream the server ends itself
 *   (`ctx.closeStream()`) is not a drop: the call goes on, and the client gets the rest from the
 *   session's event buffer when it reconnects with `Last-Event-ID`;
 * - `ended` is called once when the body ends, fails or is cancelled (or now, if it has none).
 */
export function watchResponse(
  response: Response,
  ids: readonly RequestId[],
  deliver: (notification: JSONRPCNotification) => void,
  ended?: () => void,
): Response {
  if (!response.body) {
    ended?.();
    return response;
  }
  if (ids.length === 0 && !ended) return response;
  const reader = response.body.getReader();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    ended?.();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const read = await reader.read();
        if (read.done) {
          finish();
          controller.close();
        } else {
          controller.enqueue(read.value);
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      if (!done) {
        for (const requestId of ids) {
          deliver({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'The client disconnected before the response ended.' },
          });
        }
      }
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
