import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import type { HttpExchange, HttpResponder } from '../http/http-exchange.js';
import { HTTP_REFUSED, INVALID_PARAMS, rpcError } from '../http/rpc-error.js';
import { type ChangeHub, notificationOf } from '../subscriptions/change-hub.js';
import { agreedFilter, type FilterLimits, type Notifiable, wants } from '../subscriptions/listen-filter.js';

/** How many listen streams may be open, and how large a filter may be. */
export interface ListenLimits extends FilterLimits {
  /** Streams open at once, in all. */
  readonly maxStreams: number;
  /** Streams one caller may hold: a signed-in user, or an anonymous caller's address. */
  readonly maxStreamsPerCaller: number;
}

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
  readonly #limits: ListenLimits;
  readonly #open = new Set<() => void>();
  /** Open streams by caller (user, or address for anonymous callers). */
  readonly #byCaller = new Map<string, number>();

  constructor(options: {
    hub: ChangeHub;
    serverInfo: { name: string; version: string };
    supported: () => Notifiable;
    limits: ListenLimits;
  }) {
    this.#hub = options.hub;
    this.#serverInfo = options.serverInfo;
    this.#supported = options.supported;
    this.#limits = options.limits;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Opens a stream for `caller` (see `callerKey`), within its budget and the server's. */
  serve(message: JSONRPCRequest, exchange: HttpExchange, respond: HttpResponder, caller: string): void {
    const id = message.id;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const filter = agreedFilter(params.notifications, this.#supported(), this.#limits);
    if ('problem' in filter) {
      respond.json(400, rpcError(id, INVALID_PARAMS, `Invalid params: ${filter.problem}`));
      return;
    }
    const held = this.#byCaller.get(caller) ?? 0;
    if (held >= this.#limits.maxStreamsPerCaller) {
      const message = `Too many open subscription streams for this caller (${this.#limits.maxStreamsPerCaller}); close one, or listen to more in one stream's filter.`;
      respond.json(429, rpcError(id, HTTP_REFUSED, message));
      return;
    }
    if (this.#open.size >= this.#limits.maxStreams) {
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
    const unwatch = (filter.resourceSubscriptions ?? []).map((uri) => this.#hub.watch(uri));
    const stopListening = this.#hub.listen((change) => {
      if (!wants(filter, change)) return;
      const { method, params: body } = notificationOf(change);
      write({ jsonrpc: '2.0', method, params: { ...body, _meta: tag } });
    });
    const end = (graceful: boolean) => {
      if (!this.#open.delete(close)) return;
      const left = (this.#byCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.#byCaller.set(caller, left);
      else this.#byCaller.delete(caller);
      stopListening();
      for (const stop of unwatch) stop();
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
    this.#byCaller.set(caller, held + 1);
    exchange.onAbort(() => end(false));
  }

  /** Ends every stream with its empty result (the server is closing). */
  closeAll(): void {
    for (const close of [...this.#open]) close();
  }
}
