import type {
  AuthInfo,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { INTERNAL_ERROR } from '../http/rpc-error.js';
import type { Arrival } from '../request/call-request.js';

/** Where one exchange's messages go: mid-call notifications, then exactly one response. */
export interface ExchangeSink {
  notify(message: JSONRPCNotification): void;
  /** `beforeDispatch`: no request handler ran (the error, if any, is a protocol-level rejection). */
  finish(message: JSONRPCResultResponse | JSONRPCErrorResponse, beforeDispatch: boolean): void;
}

/** One request in flight: where its answer goes, and what the edge recorded about it. */
class Exchange implements Arrival {
  /** Whether a request handler started: an error before that came from the SDK's dispatch checks. */
  started = false;

  constructor(
    readonly externalId: RequestId,
    readonly sink: ExchangeSink,
    readonly authInfo: AuthInfo | undefined,
    readonly caller: string,
    readonly internal: boolean,
  ) {}

  dispatched(): void {
    this.started = true;
  }
}

const isResponse = (message: JSONRPCMessage): message is JSONRPCResultResponse | JSONRPCErrorResponse =>
  'id' in message && ('result' in message || 'error' in message);

/**
 * One long-lived connection carrying every 2026-07-28 HTTP request of this process into ONE
 * modern-era SDK server. The era is stateless, so nothing about one request outlives it; sharing the
 * instance only saves building a server, connecting a transport and tearing both down again for
 * every request. Request ids are renumbered on the way in (clients' ids collide) and restored on the
 * way out; notifications a handler relates to its request reach that request's HTTP response.
 */
export class ModernMux implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #exchanges = new Map<number, Exchange>();
  #nextId = 0;
  #closed = false;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const [, exchange] of this.#exchanges) {
      exchange.sink.finish(
        {
          jsonrpc: '2.0',
          id: exchange.externalId,
          error: { code: INTERNAL_ERROR, message: 'The server is shutting down; retry the request.' },
        },
        !exchange.started,
      );
    }
    this.#exchanges.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const id = message.id as number;
      const exchange = this.#exchanges.get(id);
      if (!exchange) return;
      this.#exchanges.delete(id);
      exchange.sink.finish({ ...message, id: exchange.externalId }, !exchange.started);
      return;
    }
    const related = options?.relatedRequestId;
    if ('id' in message || related === undefined) {
      // 2026-07-28 has no server-to-client requests and no session-wide stream: nowhere to go.
      this.onerror?.(new Error(`Dropped a message with no request to ride on: ${message.method}`));
      return;
    }
    this.#exchanges.get(related as number)?.sink.notify(message);
  }

  /** Serves one request; returns a function that cancels it (the HTTP client went away). */
  exchange(
    message: JSONRPCRequest,
    from: { readonly authInfo: AuthInfo | undefined; readonly caller: string },
    sink: ExchangeSink,
    internal = false,
  ): () => void {
    if (this.#closed || !this.onmessage) {
      sink.finish(
        {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: INTERNAL_ERROR,
            message: 'The server is not serving (it is stopping); retry the request.',
          },
        },
        true,
      );
      return () => {};
    }
    const id = ++this.#nextId;
    this.#exchanges.set(id, new Exchange(message.id, sink, from.authInfo, from.caller, internal));
    // No `{ authInfo }` beside the message, as a session's transport passes it: `serveStdio`, which
    // pins this connection to the modern era, hands the server each message without it. The
    // request's arrival carries it instead.
    this.onmessage({ ...message, id });
    return () => {
      if (!this.#exchanges.delete(id)) return;
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'client disconnected' },
      });
    };
  }

  /** What the edge recorded about an in-flight (renumbered) request. */
  arrivalOf(id: RequestId): Arrival | undefined {
    return this.#exchanges.get(id as number);
  }

  /** Requests in flight. */
  get size(): number {
    return this.#exchanges.size;
  }
}
