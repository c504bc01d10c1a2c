import type { Client, ClientCapabilities, Transport } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { connectSdk, type SdkConnectOptions } from '@parley/client/raw';
import type { Json } from '@parley/server';
import { answerError, LiveCall } from '../held/live-call.js';
import type { UpstreamRequest } from '../leg/step.js';
import { isUnreachable } from './reachability.js';
import { httpTransport, SessionTransport, type SessionTransportOptions } from './session-transport.js';

/** The longest an upstream call held open may take in all (the person's time included). */
const LIVE_CALL_TIMEOUT_MS = 60 * 60_000;

/** How long a new session's first call waits for the session's standalone stream to open, at most. */
const STANDALONE_WAIT_MS = 2_000;

/** How long the upstream may take to end a session the gateway closes (it is closed here regardless). */
const TERMINATE_MS = 5_000;

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
  #transport: Transport | undefined;
  #closed = false;
  #lastUsed = Date.now();
  protocolVersion = '';
  /** Told once when the session ends (closed here, closed by the upstream, or its process exited). */
  onclose: (() => void) | undefined;

  /**
   * Opens the session; `options` are how the upstream is reached. Over HTTP it resolves once the
   * session's standalone stream is open (or refused): a server that asks outside the call's own
   * stream (the TS SDK v1's `server.elicitInput` does) asks on that stream, and drops what it sends
   * before the stream is there.
   */
  static async open(
    target: string | readonly string[],
    options: Omit<SdkConnectOptions, 'capabilities' | 'prepare' | 'era'> & {
      /** HTTP: send on `node:http` directly (`UpstreamFetch.request`) rather than through `fetch`. */
      readonly request?: SessionTransportOptions['request'];
    },
    capabilities: ClientCapabilities,
  ): Promise<LegacySession> {
    const session = new LegacySession();
    const { request, ...connect } = options;
    const http =
      typeof target === 'string'
        ? httpTransport(target, {
            ...(options.headers !== undefined && { headers: options.headers }),
            ...(request !== undefined && { request }),
            ...(options.fetch !== undefined && { fetch: options.fetch }),
          })
        : undefined;
    const connected = await connectSdk(target, {
      ...connect,
      ...(http !== undefined && { transport: http }),
      era: 'handshake',
      capabilities,
      prepare: (sdk) => session.#prepare(sdk),
    });
    // The transport asks for the stream once the upstream accepted `notifications/initialized`.
    if (http !== undefined) await Promise.race([http.standaloneOpened, delay(STANDALONE_WAIT_MS)]);
    session.#sdk = connected.sdk;
    session.#transport = connected.transport;
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

  /**
   * Starts a call; it stays open while the upstream asks its questions. The session's `last` call
   * closes it when it ends (before its outcome is handed on).
   */
  start(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options?: { readonly last?: boolean },
  ): LiveCall {
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
          .finally(() => {
            this.#calls.delete(live);
            if (options?.last) void this.close();
          }),
      this.protocolVersion,
    );
    this.#calls.add(live);
    return live;
  }

  /** Ends the session here and, over HTTP, at the upstream too (`DELETE`), so it frees what it holds. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const live of this.#calls) live.cancel('the gateway closed the upstream session');
    this.onclose?.();
    const sdk = this.#sdk;
    const transport = this.#transport;
    if (transport instanceof SessionTransport) {
      // Closing the client aborts a DELETE the upstream is slow to answer.
      const giveUp = setTimeout(() => void sdk?.close().catch(() => {}), TERMINATE_MS);
      await transport.terminateSession().catch(() => {});
      clearTimeout(giveUp);
    }
    await sdk?.close().catch(() => {});
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
