import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { connectSdk, type SdkConnectOptions } from '@parley/client/raw';
import type { Json } from '@parley/server';
import type { UpstreamRequest } from '../relay/step.js';
import { answerError, LiveCall } from './live-call.js';
import { isUnreachable } from './reachability.js';

/** The longest an upstream call held open may take in all (the person's time included). */
const LIVE_CALL_TIMEOUT_MS = 60 * 60_000;

/** What the server-to-client requests of a 2025 upstream may be. */
const SERVER_REQUESTS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/**
 * One 2025-era session with an upstream, declaring exactly the capabilities it was opened with.
 * Its calls are {@link LiveCall}s. It serves one call at a time (the `SessionPool` sees to
 * that), so every server request and log message that arrives belongs to that call.
 */
export class LegacySession {
  readonly #calls = new Set<LiveCall>();
  #sdk: Client | undefined;
  #closed = false;
  #lastUsed = Date.now();
  protocolVersion = '';
  /** Told once when the session ends (the upstream closed it, or its process exited). */
  onclose: (() => void) | undefined;

  /** Opens the session; `options` are how the upstream is reached. */
  static async open(
    target: string | readonly string[],
    options: Omit<SdkConnectOptions, 'capabilities' | 'prepare' | 'era'>,
    capabilities: ClientCapabilities,
  ): Promise<LegacySession> {
    const session = new LegacySession();
    const connected = await connectSdk(target, {
      ...options,
      era: 'handshake',
      capabilities,
      prepare: (sdk) => session.#prepare(sdk),
    });
    session.#sdk = connected.sdk;
    session.protocolVersion = connected.protocolVersion;
    connected.sdk.onclose = () => session.#ended();
    // Over HTTP nothing closes when the upstream goes: a failed send or stream says so.
    connected.sdk.onerror = (error) => {
      if (isUnreachable(error)) {
        session.#ended();
        void connected.sdk.close().catch(() => {});
      }
    };
    return session;
  }

  /** Calls in flight. */
  get busy(): number {
    return this.#calls.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** When the session last started a call (for closing idle sessions). */
  get lastUsed(): number {
    return this.#lastUsed;
  }

  /** Starts a call; it stays open while the upstream asks its questions. */
  start(method: string, params: Readonly<Record<string, unknown>>): LiveCall {
    const sdk = this.#sdk;
    if (sdk === undefined || this.#closed) throw new Error('The upstream session is closed');
    this.#lastUsed = Date.now();
    let live: LiveCall;
    live = new LiveCall(
      (signal) =>
        sdk
          .request({ method, params } as never, {
            signal,
            timeout: LIVE_CALL_TIMEOUT_MS,
            onprogress: (progress) => live.progress(progress),
          })
          .finally(() => this.#calls.delete(live)),
      this.protocolVersion,
    );
    this.#calls.add(live);
    return live;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const live of this.#calls) live.cancel('the gateway closed the upstream session');
    await this.#sdk?.close().catch(() => {});
  }

  #prepare(sdk: Client): void {
    sdk.fallbackRequestHandler = async (request) => {
      const call = this.#callFor();
      if (!SERVER_REQUESTS.has(request.method) || call === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          call === undefined
            ? `${request.method} arrived outside any call of the gateway (SEP-2260: server requests belong to a client request)`
            : `Method not found: ${request.method}`,
        );
      }
      const answer = await call.incoming({
        method: request.method,
        params: request.params as UpstreamRequest['params'],
      });
      const error = answerError(answer);
      if (error) throw error;
      return (answer as { result: { [key: string]: Json } }).result as never;
    };
    sdk.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      const id = notification.params?.elicitationId;
      if (typeof id !== 'string') return;
      for (const call of this.#calls) if (call.urlComplete(id)) return;
    });
    sdk.setNotificationHandler('notifications/message', (notification) => {
      const call = this.#callFor();
      call?.log(notification.params as never);
    });
  }

  /** The call a server request or notification belongs to: the one in flight. */
  #callFor(): LiveCall | undefined {
    for (const call of this.#calls) if (!call.ended) return call;
    return undefined;
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const live of this.#calls) live.cancel('the upstream closed the session');
    this.onclose?.();
  }
}
