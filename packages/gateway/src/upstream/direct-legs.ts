import { AsyncLocalStorage } from 'node:async_hooks';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import type { LiveListeners } from '../leg/host-facts.js';
import type { SessionTransport } from './session-transport.js';

/** One leg sent: where its answer and its notifications go. */
interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly listeners: LiveListeners;
  /** Pushed back by each progress notification (the leg's timeout restarts then). */
  restart(): void;
}

/** How long one leg may take, and what hears of it meanwhile. */
export interface LegOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly listeners: LiveListeners;
  /** Whether the host asked for progress (the upstream is then given a token of the gateway's). */
  readonly progress: boolean;
  /** Whether the host asked for log messages (a log level). */
  readonly logs: boolean;
}

/**
 * 2026-07-28 legs sent straight on the gateway's own HTTP transport, without the SDK's client:
 * each request is one POST whose answer (JSON, or an event stream with the leg's progress and
 * logs before it) settles it. What the transport reads is capped and checked as for the control
 * connection; what this adds is the bookkeeping the SDK's `Protocol` would do for one request:
 * an id, a timeout restarted by progress, cancellation by the host's signal, and the upstream's
 * progress and logs told to the leg that caused them.
 */
export class DirectLegs {
  readonly #transport: SessionTransport;
  readonly #pending = new Map<string, Pending>();
  /** The leg whose response stream is being read: its logs go to it (they name no request). */
  readonly #reading = new AsyncLocalStorage<Pending>();
  #next = 0;

  constructor(transport: SessionTransport) {
    this.#transport = transport;
    transport.onmessage = (message) => this.#receive(message);
    // A failed leg rejects its own promise; the rest is not news.
    transport.onerror = () => {};
  }

  start(): Promise<void> {
    return this.#transport.start();
  }

  /** Stops every leg in flight (each fails with an error saying so), then the transport. */
  close(): Promise<void> {
    for (const [, pending] of this.#pending)
      pending.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'The upstream connection closed.'));
    this.#pending.clear();
    return this.#transport.close();
  }

  /** Sends one request and resolves with its result; a JSON-RPC error rejects as a `ProtocolError`. */
  send(method: string, params: Record<string, unknown>, options: LegOptions): Promise<unknown> {
    const id = `d${this.#next++}`;
    const sent = options.progress
      ? { ...params, _meta: { ...(params._meta as object), progressToken: id } }
      : params;
    return new Promise<unknown>((resolve, reject) => {
      const stop = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', cancelled);
        this.#pending.delete(id);
      };
      const fail = (error: unknown) => {
        finish();
        stop.abort();
        reject(error);
      };
      const cancelled = () => fail(new SdkError(SdkErrorCode.RequestTimeout, 'The host cancelled the call.'));
      const pending: Pending = {
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: fail,
        listeners: options.listeners,
        restart: () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => fail(new SdkError(SdkErrorCode.RequestTimeout, 'The upstream did not answer in time.')),
            options.timeoutMs,
          );
        },
      };
      if (options.signal.aborted) return cancelled();
      options.signal.addEventListener('abort', cancelled, { once: true });
      this.#pending.set(id, pending);
      pending.restart();
      const message = { jsonrpc: '2.0', id, method, params: sent } as JSONRPCMessage;
      const send = () => this.#transport.sendStoppedBy(message, stop.signal);
      // Logs name no request: the leg whose stream is read is known by where the reading runs.
      (options.logs ? this.#reading.run(pending, send) : send()).catch((error: unknown) => {
        if (this.#pending.has(id)) fail(error);
      });
    });
  }

  #receive(message: JSONRPCMessage): void {
    if (isJSONRPCResultResponse(message)) {
      this.#pending.get(String(message.id))?.resolve(message.result);
      return;
    }
    if (isJSONRPCErrorResponse(message)) {
      const { code, message: text, data } = message.error;
      this.#pending.get(String(message.id))?.reject(new ProtocolError(code, text, data));
      return;
    }
    if (!('method' in message)) return;
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (message.method === 'notifications/progress') {
      const pending = this.#pending.get(String(params.progressToken));
      if (pending === undefined || typeof params.progress !== 'number') return;
      pending.restart();
      pending.listeners.progress?.({
        progress: params.progress,
        ...(typeof params.total === 'number' && { total: params.total }),
        ...(typeof params.message === 'string' && { message: params.message }),
      });
    } else if (message.method === 'notifications/message')
      this.#reading.getStore()?.listeners.log?.(params as never);
  }
}
