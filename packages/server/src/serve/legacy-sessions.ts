import {
  type AuthInfo,
  isInitializeRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { requestIdsOf, watchResponse } from './cancel-on-disconnect.js';
import { HTTP_REFUSED, rpcError, SESSION_NOT_FOUND } from './rpc-error.js';
import { admitSession, type SessionLimits, type SessionQuota } from './session-admission.js';
import { SessionEvents } from './session-events.js';
import type { SessionRecord, SessionRouter } from './session-router.js';

interface Session {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly events: SessionEvents;
  readonly server: Server;
  readonly principal: string | undefined;
  lastSeen: number;
  inFlight: number;
  /** Whether the fleet's router knows it (once `initialize` succeeded). */
  routed: boolean;
}

export interface LegacySessionOptions extends SessionLimits {
  /** Builds the SDK server for a new 2025-era session. */
  readonly build: () => Server;
  readonly principalOf: (authInfo: AuthInfo | undefined) => string | undefined;
  readonly idleMs: number;
  readonly maxBodyBytes: number;
  /** The `retry` (ms) SSE streams suggest for reconnecting after the server closed one. */
  readonly sseRetryMs: number;
  readonly now?: () => number;
  /** Passes requests for sessions held by another replica to it (a fleet without affinity). */
  readonly router?: SessionRouter | undefined;
  /** What every session id starts with (a balancer may route on it). Default: nothing. */
  readonly idPrefix?: string;
}

const REFUSALS: Readonly<Record<SessionQuota, { status: number; message: string }>> = {
  user: {
    status: 429,
    message:
      'Too many open sessions for this user, each busy with a call; end one (DELETE with its Mcp-Session-Id) or wait for a call to finish.',
  },
  anonymous: {
    status: 429,
    message:
      'Too many open anonymous sessions, each busy with a call; sign in (send credentials) or try again later.',
  },
  server: { status: 503, message: 'Too many open sessions, each busy with a call; try again later.' },
};

const NOT_FORWARDED: Readonly<Record<'not-found' | 'gone' | 'unreachable', string>> = {
  'not-found': 'Session not found: it ended or expired; start a new session with initialize.',
  gone: 'Session not found: the server process that held it stopped; start a new session with initialize.',
  unreachable:
    'The server process holding this session cannot be reached right now; try again, or start a new session with initialize.',
};

/**
 * Serves 2025-era clients over Streamable HTTP with real sessions (`Mcp-Session-Id`), so the server
 * can send them `elicitation/create` mid-call; the SDK's default stateless legacy serving cannot.
 * A session is bound to the user who opened it. Sessions are capped per user, for anonymous callers
 * together and in all (see {@link admitSession}); idle ones are swept on a timer.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #options: LegacySessionOptions;
  readonly #now: () => number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(options: LegacySessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(10, Math.min(options.idleMs / 2, 60_000)));
    this.#sweeper.unref?.();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get idleMs(): number {
    return this.#options.idleMs;
  }

  /** The sessions held here, as the fleet's router records them. */
  records(): Omit<SessionRecord, 'owner'>[] {
    return [...this.#sessions.values()].filter((session) => session.routed).map((s) => this.#record(s));
  }

  /**
   * Serves a 2025-era request. With a router, a request for a session another replica holds is
   * passed to it, unless `mayForward` is false (it was passed here already).
   */
  async handle(
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    mayForward = true,
  ): Promise<Response> {
    this.#sweep();
    const principal = this.#options.principalOf(authInfo);
    const sessionId = request.headers.get('mcp-session-id');
    const handleOptions = { ...(parsedBody !== undefined && { parsedBody }), ...(authInfo && { authInfo }) };
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      const router = this.#options.router;
      if (!session && router && mayForward) {
        const forwarded = await router.forward(sessionId, request, principal);
        if (forwarded instanceof Response) return forwarded;
        return Response.json(rpcError(null, SESSION_NOT_FOUND, NOT_FORWARDED[forwarded]), {
          status: forwarded === 'unreachable' ? 503 : 404,
        });
      }
      if (!session || session.principal !== principal) {
        const message = 'Session not found: it ended or expired; start a new session with initialize.';
        return Response.json(rpcError(null, SESSION_NOT_FOUND, message), { status: 404 });
      }
      session.lastSeen = this.#now();
      if (session.routed) router?.touched(session.id);
      const { transport } = session;
      // A POST's response ends when its calls finish: until then the session is busy and is not
      // evicted to make room (a GET's standalone stream does not count).
      const busy = request.method === 'POST';
      if (busy) session.inFlight++;
      let response: Response;
      try {
        response = await transport.handleRequest(request, handleOptions);
      } catch (error) {
        if (busy) session.inFlight--;
        throw error;
      }
      return watchResponse(
        response,
        requestIdsOf(parsedBody),
        (notification) => transport.onmessage?.(notification),
        busy ? () => session.inFlight-- : undefined,
      );
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      const message = 'Bad Request: Mcp-Session-Id header is required; send initialize first.';
      return Response.json(rpcError(null, HTTP_REFUSED, message), { status: 400 });
    }
    const admission = admitSession(this.#sessions.values(), principal, this.#options);
    if ('refuse' in admission) {
      const { status, message } = REFUSALS[admission.refuse];
      return Response.json(rpcError(null, HTTP_REFUSED, message), { status });
    }
    for (const id of admission.evict) this.#drop(id);
    // The session counts from now, not from when the SDK confirms it, so concurrent initializes
    // cannot all pass the quota check at once.
    const id = `${this.#options.idPrefix ?? ''}${crypto.randomUUID()}`;
    const server = this.#options.build();
    const events = new SessionEvents({ now: this.#now });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      maxRequestBodySize: this.#options.maxBodyBytes,
      // Resumable streams: a client reconnects with Last-Event-ID and gets what it missed.
      eventStore: events,
      retryInterval: this.#options.sseRetryMs,
      onsessionclosed: (closed) => {
        this.#drop(closed);
      },
    });
    transport.onclose = () => {
      if (this.#sessions.get(id)?.transport === transport) {
        this.#sessions.delete(id);
        void this.#options.router?.closed(id);
      }
    };
    const session: Session = {
      id,
      transport,
      events,
      server,
      principal,
      lastSeen: this.#now(),
      inFlight: 0,
      routed: false,
    };
    this.#sessions.set(id, session);
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, handleOptions);
      if (transport.sessionId !== id) this.#drop(id);
      else if (this.#options.router) {
        session.routed = true;
        await this.#options.router.opened(this.#record(session));
      }
      return response;
    } catch (error) {
      this.#drop(id);
      throw error;
    }
  }

  /** Ends every session (their pending questions are rejected) and stops the sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  #drop(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    if (session) {
      if (session.routed) void this.#options.router?.closed(id);
      void session.server.close().catch(() => {});
    }
  }

  #record(session: Session): Omit<SessionRecord, 'owner'> {
    return {
      id: session.id,
      principal: session.principal,
      protocolVersion: session.server.getNegotiatedProtocolVersion(),
      capabilities: session.server.getClientCapabilities() ?? {},
      expiresAt: session.lastSeen + this.#options.idleMs,
    };
  }

  #sweep(): void {
    const cutoff = this.#now() - this.#options.idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen < cutoff && session.inFlight === 0) this.#drop(id);
      else session.events.prune();
    }
  }
}
