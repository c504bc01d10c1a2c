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
import { INTERNAL_ERROR } from './rpc-error.js';

/** Where one exchange's messages go: mid-call notifications, then exactly one response. */
export interface ExchangeSink {
  notify(message: JSONRPCNotification): void;
  finish(message: JSONRPCResultResponse | JSONRPCErrorResponse, finish: Finish): void;
}

interface Exchange {
  readonly externalId: RequestId;
  readonly sink: ExchangeSink;
  readonly authInfo: AuthInfo | undefined;
  /** Whom the request's budgets count against (see `callerKey`). */
  readonly caller: string;
  /** Whether a request handler started: an error before that came from the SDK's dispatch checks. */
  dispatched: boolean;
  /** The server's own request (the era pin), not a client's. */
  readonly internal: boolean;
}

/** What the sink learns with the response. */
export interface Finish {
  /** True when no request handler ran (the error, if any, is a protocol-level rejection). */
  readonly beforeDispatch: boolean;
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
        { beforeDispatch: !exchange.dispatched },
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
      exchange.sink.finish({ ...message, id: exchange.externalId }, { beforeDispatch: !exchange.dispatched });
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
        { beforeDispatch: true },
      );
      return () => {};
    }
    const id = ++this.#nextId;
    this.#exchanges.set(id, {
      externalId: message.id,
      sink,
      authInfo: from.authInfo,
      caller: from.caller,
      dispatched: false,
      internal,
    });
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

  /** Called by request handlers as they start. */
  markDispatched(id: RequestId): void {
    const exchange = this.#exchanges.get(id as number);
    if (exchange) exchange.dispatched = true;
  }

  /** The auth info of the HTTP request behind an in-flight (renumbered) request id. */
  authInfoFor(id: RequestId): AuthInfo | undefined {
    return this.#exchanges.get(id as number)?.authInfo;
  }

  /** Whom the budgets of an in-flight (renumbered) request count against. */
  callerFor(id: RequestId): string | undefined {
    return this.#exchanges.get(id as number)?.caller;
  }

  /** Whether an in-flight (renumbered) request is the server's own rather than a client's. */
  isInternal(id: RequestId): boolean {
    return this.#exchanges.get(id as number)?.internal ?? false;
  }

  /** Requests in flight. */
  get size(): number {
    return this.#exchanges.size;
  }
}
