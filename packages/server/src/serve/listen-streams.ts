import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { type ChangeHub, notificationOf } from '../subscriptions/change-hub.js';
import { agreedFilter, type Notifiable, wants } from '../subscriptions/listen-filter.js';
import type { HttpExchange, HttpResponder } from './http-exchange.js';
import { HTTP_REFUSED, INVALID_PARAMS, rpcError } from './rpc-error.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * The 2026-07-28 `subscriptions/listen` streams of one endpoint: each POST opens an SSE stream that
 * starts with `notifications/subscriptions/acknowledged` and then carries the changes its filter
 * asked for, every frame tagged with the subscription id (the request's id). The stream ends when
 * the client goes away, or with an empty result when the server closes.
 */
export class ListenStreams {
  readonly #hub: ChangeHub;
  readonly #serverInfo: { name: string; version: string };
  readonly #supported: () => Notifiable;
  readonly #maxStreams: number;
  readonly #open = new Set<() => void>();

  constructor(options: {
    hub: ChangeHub;
    serverInfo: { name: string; version: string };
    supported: () => Notifiable;
    maxStreams: number;
  }) {
    this.#hub = options.hub;
    this.#serverInfo = options.serverInfo;
    this.#supported = options.supported;
    this.#maxStreams = options.maxStreams;
  }

  get size(): number {
    return this.#open.size;
  }

  serve(message: JSONRPCRequest, exchange: HttpExchange, respond: HttpResponder): void {
    const id = message.id;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const filter = agreedFilter(params.notifications, this.#supported());
    if (!filter) {
      respond.json(
        400,
        rpcError(id, INVALID_PARAMS, 'Invalid params: notifications must be a SubscriptionFilter object.'),
      );
      return;
    }
    if (this.#open.size >= this.#maxStreams) {
      respond.json(503, rpcError(id, HTTP_REFUSED, 'Too many open subscription streams; try again later.'));
      return;
    }
    const tag = { [SUBSCRIPTION_ID]: id };
    const write = respond.openStream();
    write({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: filter, _meta: tag },
    });
    const stopListening = this.#hub.listen((change) => {
      if (!wants(filter, change)) return;
      const { method, params: body } = notificationOf(change);
      write({ jsonrpc: '2.0', method, params: { ...body, _meta: tag } });
    });
    const end = (graceful: boolean) => {
      if (!this.#open.delete(close)) return;
      stopListening();
      if (graceful)
        write({
          jsonrpc: '2.0',
          id,
          result: { resultType: 'complete', _meta: { ...tag, [SERVER_INFO]: this.#serverInfo } },
        });
      write(null);
    };
    const close = () => end(true);
    this.#open.add(close);
    exchange.onAbort(() => end(false));
  }

  /** Ends every stream with its empty result (the server is closing). */
  closeAll(): void {
    for (const close of [...this.#open]) close();
  }
}
