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

/** How often the legs in flight are checked against their deadlines. */
const SWEEP_MS = 500;

/** One leg sent: where its answer and its notifications go, and until when it may take. */
class Leg {
  /** When it fails for want of an answer (pushed back by each progress notification). */
  deadline: number;

  constructor(
    readonly resolve: (result: unknown) => void,
    readonly reject: (error: unknown) => void,
    readonly options: LegOptions,
    /** Stops its request. */
    readonly stop: AbortController,
  ) {
    this.deadline = Date.now() + options.timeoutMs;
  }

  get listeners(): LiveListeners {
    return this.options.listeners;
  }

  restart(): void {
    this.deadline = Date.now() + this.options.timeoutMs;
  }
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
  readonly #pending = new Map<string, Leg>();
  /** The leg whose response stream is being read: its logs go to it (they name no request). */
  readonly #reading = new AsyncLocalStorage<Leg>();
  /** One timer for every leg's deadline (a timer per leg cost a round more than the check). */
  #sweep: NodeJS.Timeout | undefined;
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
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    for (const [id, leg] of this.#pending)
      this.#fail(id, leg, new SdkError(SdkErrorCode.ConnectionClosed, 'The upstream connection closed.'));
    return this.#transport.close();
  }

  /**
   * Sends one request and resolves with its result; a JSON-RPC error rejects as a `ProtocolError`.
   * `params` is the leg's own (its `_meta` gets the progress token).
   */
  send(method: string, params: Record<string, unknown>, options: LegOptions): Promise<unknown> {
    const id = `d${this.#next++}`;
    if (options.progress) (params._meta as Record<string, unknown>).progressToken = id;
    return new Promise<unknown>((resolve, reject) => {
      const leg = new Leg(resolve, reject, options, new AbortController());
      const { signal } = options;
      if (signal.aborted) return reject(cancelledError());
      signal.addEventListener('abort', () => this.#fail(id, leg, cancelledError()), { once: true });
      this.#pending.set(id, leg);
      this.#sweep ??= setInterval(() => this.#expire(), SWEEP_MS).unref();
      const message = { jsonrpc: '2.0', id, method, params } as JSONRPCMessage;
      const send = () => this.#transport.sendStoppedBy(message, leg.stop.signal);
      // Logs name no request: the leg whose stream is read is known by where the reading runs.
      (options.logs ? this.#reading.run(leg, send) : send()).catch((error: unknown) => {
        if (this.#pending.get(id) === leg) this.#fail(id, leg, error);
      });
    });
  }

  #expire(): void {
    const now = Date.now();
    for (const [id, leg] of this.#pending)
      if (leg.deadline <= now)
        this.#fail(
          id,
          leg,
          new SdkError(SdkErrorCode.RequestTimeout, 'The upstream did not answer in time.'),
        );
    if (this.#pending.size === 0) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }

  #fail(id: string, leg: Leg, error: unknown): void {
    if (this.#pending.get(id) !== leg) return;
    this.#pending.delete(id);
    leg.stop.abort();
    leg.reject(error);
  }

  #settle(id: unknown, settle: (leg: Leg) => void): void {
    const key = String(id);
    const leg = this.#pending.get(key);
    if (leg === undefined) return;
    this.#pending.delete(key);
    settle(leg);
  }

  #receive(message: JSONRPCMessage): void {
    if (isJSONRPCResultResponse(message)) {
      this.#settle(message.id, (leg) => leg.resolve(message.result));
      return;
    }
    if (isJSONRPCErrorResponse(message)) {
      const { code, message: text, data } = message.error;
      this.#settle(message.id, (leg) => leg.reject(new ProtocolError(code, text, data)));
      return;
    }
    if (!('method' in message)) return;
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (message.method === 'notifications/progress') {
      const leg = this.#pending.get(String(params.progressToken));
      if (leg === undefined || typeof params.progress !== 'number') return;
      leg.restart();
      leg.listeners.progress?.({
        progress: params.progress,
        ...(typeof params.total === 'number' && { total: params.total }),
        ...(typeof params.message === 'string' && { message: params.message }),
      });
    } else if (message.method === 'notifications/message')
      this.#reading.getStore()?.listeners.log?.(params as never);
  }
}

function cancelledError(): SdkError {
  return new SdkError(SdkErrorCode.RequestTimeout, 'The host cancelled the call.');
}
