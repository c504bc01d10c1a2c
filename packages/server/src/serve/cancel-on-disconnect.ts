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
 * The response of a 2025-era POST whose requests are cancelled if the client drops the response
 * stream before it ends: the client went away, and without this a handler waiting on a question
 * it will never answer would hold it until `questionTimeoutMs`. With it, the handler's signal
 * aborts as if the client had sent `notifications/cancelled`, and the question is freed. A stream
 * the server ends itself (`ctx.closeStream()`) is not a drop: the call goes on, and the client
 * gets the rest from the session's event buffer when it reconnects with `Last-Event-ID`.
 */
export function cancelOnDisconnect(
  response: Response,
  ids: readonly RequestId[],
  deliver: (notification: JSONRPCNotification) => void,
): Response {
  if (!response.body || ids.length === 0) return response;
  const reader = response.body.getReader();
  let ended = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      if (!ended) {
        for (const requestId of ids) {
          deliver({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'The client disconnected before the response ended.' },
          });
        }
      }
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
