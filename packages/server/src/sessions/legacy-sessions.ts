import { type AuthInfo, isInitializeRequest, type Server } from '@modelcontextprotocol/server';
import { callerKey } from '../http/caller-key.js';
import type { HttpExchange, HttpResponder } from '../http/http-exchange.js';
import { HTTP_REFUSED, rpcError, SESSION_NOT_FOUND } from '../http/rpc-error.js';
import { admitSession, type SessionLimits, type SessionQuota } from './session-admission.js';
import type { SessionRecord, SessionRouter } from './session-router.js';
import { SessionTransport } from './session-transport.js';

/** How often open streams get a keep-alive comment (proxies end streams that stay silent). */
const KEEP_ALIVE_MS = 15_000;

class Session {
  lastSeen: number;
  /** Whether the fleet's router knows it (once `initialize` succeeded). */
  routed = false;

  constructor(
    readonly id: string,
    readonly transport: SessionTransport,
    readonly server: Server,
    readonly principal: string | undefined,
    /** An anonymous caller's `callerKey` (by its address); `undefined` for a signed-in user. */
    readonly address: string | undefined,
    now: number,
  ) {
    this.lastSeen = now;
  }

  /** Calls still waiting for their response (a busy session is not evicted). */
  get inFlight(): number {
    return this.transport.pending;
  }
}

export interface LegacySessionOptions extends SessionLimits {
  /** Requests one session may have in flight. */
  readonly maxCallsPerSession: number;
  /** Requests one user (an anonymous caller: one address) may have in flight across their sessions. */
  readonly maxCallsPerUser: number;
  /** Builds the SDK server for a new 2025-era session. */
  readonly build: () => Server;
  readonly principalOf: (authInfo: AuthInfo | undefined) => string | undefined;
  readonly idleMs: number;
  /** The `retry` (ms) SSE streams suggest for reconnecting after the server closed one. */
  readonly sseRetryMs: number;
  /** How long a call whose client dropped its stream waits for it to come back before it is cancelled. */
  readonly resumeGraceMs: number;
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
  address: {
    status: 429,
    message:
      'Too many open anonymous sessions from this address, each busy with a call; end one (DELETE with its Mcp-Session-Id), sign in (send credentials) or wait for a call to finish.',
  },
  anonymous: {
    status: 429,
    message:
      'Too many open anonymous sessions, each busy with a call; sign in (send credentials) or try again later.',
  },
  server: { status: 503, message: 'Too many open sessions, each busy with a call; try again later.' },
};

/** What a call still running hears when the server stops or its client ends the session. */
const STOPPING =
  'The server stopped before this call finished; call again (another replica or the restarted server will serve it).';
const DELETED = 'The session was ended (DELETE) before this call finished.';

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
/** A POST's body, parsed, with its bytes as received (for passing it on to another replica). */
interface PostBody {
  readonly parsed: unknown;
  readonly bytes: Uint8Array;
}

export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #options: LegacySessionOptions;
  readonly #now: () => number;
  readonly #sweeper: ReturnType<typeof setInterval>;
  /** One timer for every open stream of every session, not one per stream. */
  readonly #keepAlive: ReturnType<typeof setInterval>;

  constructor(options: LegacySessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(10, Math.min(options.idleMs / 2, 60_000)));
    this.#sweeper.unref?.();
    this.#keepAlive = setInterval(() => {
      for (const session of this.#sessions.values()) session.transport.keepAlive();
    }, KEEP_ALIVE_MS);
    this.#keepAlive.unref?.();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get idleMs(): number {
    return this.#options.idleMs;
  }

  /** Requests of every session still waiting for their response. */
  get inFlight(): number {
    let calls = 0;
    for (const session of this.#sessions.values()) calls += session.inFlight;
    return calls;
  }

  /** The sessions held here, as the fleet's router records them. */
  records(): Omit<SessionRecord, 'owner'>[] {
    return [...this.#sessions.values()].filter((session) => session.routed).map((s) => this.#record(s));
  }

  /**
   * Serves a 2025-era request: a POST (its body read and parsed already; `bytes` as received, for
   * passing it on), a GET or a DELETE. With a router, a request for a session another replica holds
   * is passed to it, unless `mayForward` is false (it was passed here already).
   */
  async handle(
    exchange: HttpExchange,
    respond: HttpResponder,
    body: PostBody | undefined,
    authInfo: AuthInfo | undefined,
    mayForward = true,
  ): Promise<void> {
    this.#sweep();
    const principal = this.#options.principalOf(authInfo);
    const sessionId = exchange.header('mcp-session-id');
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      const router = this.#options.router;
      if (!session && router && mayForward) {
        const forwarded = await router.forward(sessionId, exchange.webRequest(body?.bytes), principal);
        if (forwarded instanceof Response) return respond.web(forwarded);
        return respond.json(
          forwarded === 'unreachable' ? 503 : 404,
          rpcError(null, SESSION_NOT_FOUND, NOT_FORWARDED[forwarded]),
        );
      }
      if (!session || session.principal !== principal) {
        return respond.json(404, rpcError(null, SESSION_NOT_FOUND, NOT_FORWARDED['not-found']));
      }
      return this.#serveSession(session, exchange, respond, body, authInfo);
    }
    if (exchange.method !== 'POST' || !isInitializeRequest(body?.parsed)) {
      const message = 'Bad Request: Mcp-Session-Id header is required; send initialize first.';
      return respond.json(400, rpcError(null, HTTP_REFUSED, message));
    }
    return this.#open(exchange, respond, body!, authInfo, principal);
  }

  /** A request on a session this process holds: a POST within the call budget, a GET, or a DELETE. */
  #serveSession(
    session: Session,
    exchange: HttpExchange,
    respond: HttpResponder,
    body: PostBody | undefined,
    authInfo: AuthInfo | undefined,
  ): void | Promise<void> {
    session.lastSeen = this.#now();
    if (session.routed) this.#options.router?.touched(session.id);
    const { transport } = session;
    switch (exchange.method) {
      case 'POST': {
        const overBudget = this.#callBudgetRefusal(session, body?.parsed);
        if (overBudget) return respond.json(429, overBudget);
        return transport.post(exchange, respond, body?.parsed, authInfo);
      }
      case 'GET':
        return transport.get(exchange, respond);
      case 'DELETE': {
        const refused = transport.deleteRefusal(exchange);
        if (refused) return respond.json(400, refused);
        session.transport.answerPending(DELETED);
        this.#drop(session.id);
        return respond.empty(200);
      }
      default:
        return respond.json(
          405,
          rpcError(null, HTTP_REFUSED, 'Method not allowed: use POST, GET or DELETE with Mcp-Session-Id.'),
        );
    }
  }

  /** An `initialize`: a new session, if the caller's quota admits it, made known to the fleet once accepted. */
  async #open(
    exchange: HttpExchange,
    respond: HttpResponder,
    body: PostBody,
    authInfo: AuthInfo | undefined,
    principal: string | undefined,
  ): Promise<void> {
    const address = principal === undefined ? callerKey(undefined, exchange.remoteAddress) : undefined;
    const admission = admitSession(this.#sessions.values(), { principal, address }, this.#options);
    if ('refuse' in admission) {
      const { status, message } = REFUSALS[admission.refuse];
      return respond.json(status, rpcError(null, HTTP_REFUSED, message));
    }
    for (const id of admission.evict) this.#drop(id);
    // The session counts from now, not from when the SDK confirms it, so concurrent initializes
    // cannot all pass the quota check at once.
    const session = this.#newSession(principal, address);
    const { id, transport, server } = session;
    try {
      await server.connect(transport);
    } catch (error) {
      this.#drop(id);
      throw error;
    }
    // One the SDK accepts is made known to the fleet before its answer goes out, so the client's
    // next request (`notifications/initialized`, sent at once) finds it on whichever replica it reaches.
    // A Redis that is down does not hold the answer longer than RECORD_WAIT_MS.
    const router = this.#options.router;
    let recording: Promise<void> | undefined;
    if (router)
      transport.beforeInitializeAnswer = () => {
        if (this.#sessions.get(id) !== session) return Promise.resolve();
        session.routed = true;
        recording = router.opened(this.#record(session));
        // Its failure is thrown below when it comes in time; a later one is the router's to report.
        recording.catch(() => {});
        return within(recording, RECORD_WAIT_MS);
      };
    transport.post(exchange, respond, body.parsed, authInfo);
    // An initialize the transport refused (406, a batch ...) or the SDK refused ends the session.
    if (!transport.initializing && this.#sessions.get(id) === session) this.#drop(id);
    else if (!(await transport.initialized)) this.#drop(id);
    // A record that failed: the session serves here, other replicas cannot pass it on (the client
    // starts again there); the failure is the caller's to log. One that hangs holds nothing here.
    if (recording) await within(recording, RECORD_WAIT_MS);
  }

  /** A session, counted from now: its SDK server and its transport, which drops it when it closes. */
  #newSession(principal: string | undefined, address: string | undefined): Session {
    const id = `${this.#options.idPrefix ?? ''}${crypto.randomUUID()}`;
    const server = this.#options.build();
    const transport = new SessionTransport({
      sessionId: id,
      retryMs: this.#options.sseRetryMs,
      resumeGraceMs: this.#options.resumeGraceMs,
      ...(this.#options.now && { now: this.#options.now }),
    });
    transport.onclose = () => {
      if (this.#sessions.get(id)?.transport === transport) {
        this.#sessions.delete(id);
        void this.#options.router?.closed(id);
      }
    };
    const session = new Session(id, transport, server, principal, address, this.#now());
    this.#sessions.set(id, session);
    return session;
  }

  /** Ends every session (their pending questions are rejected) and stops the sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    clearInterval(this.#keepAlive);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const session of sessions) session.transport.answerPending(STOPPING);
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

  /**
   * Refuses a POST whose requests would take its session, or its user (an anonymous caller: its
   * address) across their sessions, past the requests they may have in flight; `undefined` admits it.
   * Responses and notifications (an answer to a question among them) are never refused.
   */
  #callBudgetRefusal(session: Session, parsed: unknown): ReturnType<typeof rpcError> | undefined {
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const requests = messages.filter(
      (message) => typeof message === 'object' && message !== null && 'method' in message && 'id' in message,
    );
    if (requests.length === 0) return undefined;
    const id = messages.length === 1 ? (requests[0] as { id?: unknown }).id : null;
    const { maxCallsPerSession, maxCallsPerUser } = this.#options;
    if (session.inFlight + requests.length > maxCallsPerSession) {
      const message = `Too many requests in flight on this session (at most ${maxCallsPerSession}); wait for some to finish before sending more.`;
      return rpcError(id, HTTP_REFUSED, message);
    }
    let owned = requests.length;
    for (const other of this.#sessions.values()) {
      if (other.principal === session.principal && other.address === session.address) owned += other.inFlight;
    }
    if (owned > maxCallsPerUser) {
      const who = session.principal === undefined ? 'from this address' : 'of this user';
      const message = `Too many requests in flight ${who} across its sessions (at most ${maxCallsPerUser}); wait for some to finish before sending more.`;
      return rpcError(id, HTTP_REFUSED, message);
    }
    return undefined;
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
      else session.transport.events.prune();
    }
  }
}

/** How long an `initialize` answer waits for the fleet's router to record its session. */
const RECORD_WAIT_MS = 1_000;

/** Settles as `promise` does, or after `ms` (resolved), whichever is first. */
function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
