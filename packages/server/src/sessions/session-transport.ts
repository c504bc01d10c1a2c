import {
  type AuthInfo,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { type EventOutlet, type HttpExchange, type HttpResponder, sseEvent } from '../http/http-exchange.js';
import {
  HTTP_REFUSED,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  PARSE_ERROR,
  rpcError,
  SESSION_NOT_FOUND,
} from '../http/rpc-error.js';
import { ReplayBudget, type ReplayLimits } from './replay-budget.js';
import { SessionEvents } from './session-events.js';

/** Messages one POST may batch at most (as the SDK's own transport allows). */
const MAX_BATCH = 100;

/** An `initialize` request, as far as the transport reads it. */
interface InitializeMessage {
  readonly id: RequestId;
  readonly params: { readonly protocolVersion: string };
}
/** The id of the session's standalone GET stream in its event buffer. */
const STANDALONE = 'g';

/**
 * Where one SSE stream's events go: the connection the client holds for it, when it holds one.
 * While a replay writes what the client missed (at the pace it reads), live events wait in the
 * session's event buffer and the replay sends them once it caught up; an end asked for meanwhile
 * waits for it too.
 */
interface Pipe {
  outlet: EventOutlet | undefined;
  replaying?: { endAfter: boolean } | undefined;
}

/**
 * One SSE stream of the session: a POST's (its requests' messages and responses). The client may
 * be away from it for a while (`outlet` unset) and come back with `Last-Event-ID`; a POST's stream
 * ends once every request of the POST is answered. (The standalone GET stream is a plain pipe.)
 */
interface Stream extends Pipe {
  readonly id: string;
  /** The POST's requests not answered yet (one id, or several for a batch). */
  waiting: RequestId[];
  /** Set while the client is away after a drop: when it fires, the requests are cancelled. */
  orphaned?: ReturnType<typeof setTimeout>;
}

export interface SessionTransportOptions {
  readonly sessionId: string;
  /** The `retry` (ms) a priming event suggests to a client whose stream the server ends. */
  readonly retryMs: number;
  /** How long a dropped stream's requests wait for the client to reconnect before they are cancelled. */
  readonly resumeGraceMs: number;
  /** Replays (resumptions) at once and bytes re-sent per window. Default: 8, and 4 MiB per 5 minutes. */
  readonly replays?: ReplayLimits;
  readonly now?: () => number;
}

/** Eight replays at once; four times the event buffer (1 MiB) re-sent per five minutes. */
const REPLAY_LIMITS: ReplayLimits = { maxInFlight: 8, maxBytes: 4 * 1024 * 1024, windowMs: 5 * 60_000 };

/**
 * The transport of one 2025-era Streamable HTTP session, writing server-sent events straight to
 * the HTTP responses it holds (no web streams, no `Request` objects per message): a question
 * waiting for its answer costs the response the client keeps open and a few small records.
 *
 * It keeps the transport rules of Streamable HTTP's sessions: a POST of requests gets an SSE stream
 * that carries the messages related to them and ends after their responses; a POST of responses or
 * notifications gets 202; one standalone GET stream at most (409 otherwise); every event has an
 * id, and a client that reconnects with `Last-Event-ID` gets what its stream sent after it and the
 * rest as it comes (the stream moves to the new connection, ending the old one if it looked open); on 2025-11-25 a priming event (id, `retry`, empty data) opens each stream, so
 * the server may end a long call's stream (`ctx.closeStream()`) and the client resumes. A client
 * that drops a POST's stream has `resumeGraceMs` to reconnect before its requests are cancelled.
 */
export class SessionTransport implements Transport {
  readonly sessionId: string;
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly events: SessionEvents;
  readonly #retryMs: number;
  readonly #resumeGraceMs: number;
  readonly #byRequest = new Map<RequestId, Stream>();
  readonly #streams = new Map<string, Stream>();
  readonly #standalone: Pipe = { outlet: undefined };
  /** Made on the first resumption: most sessions never resume a stream. */
  #replays: ReplayBudget | undefined;
  readonly #replayLimits: ReplayLimits;
  readonly #now: (() => number) | undefined;
  #supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  #initialized = false;
  #initializeId: RequestId | undefined;
  #settleInitialized!: (accepted: boolean) => void;
  /** Settles with whether the SDK accepted this session's `initialize` (false if it closed first). */
  readonly initialized = new Promise<boolean>((resolve) => {
    this.#settleInitialized = resolve;
  });
  /**
   * Runs before the answer that accepts this session's `initialize` goes out: the fleet's router
   * records the session then, so the client's next request finds it on any replica. Its failure
   * does not hold the answer back.
   */
  beforeInitializeAnswer: (() => Promise<void>) | undefined;
  #closed = false;
  #nextStream = 0;
  #closeStandalone: (() => void) | undefined;

  constructor(options: SessionTransportOptions) {
    this.sessionId = options.sessionId;
    this.#retryMs = options.retryMs;
    this.#resumeGraceMs = options.resumeGraceMs;
    this.events = new SessionEvents(options.now ? { now: options.now } : {});
    this.#replayLimits = options.replays ?? REPLAY_LIMITS;
    this.#now = options.now;
  }

  /** Whether an `initialize` was accepted for dispatch and its response has not been sent yet. */
  get initializing(): boolean {
    return this.#initializeId !== undefined;
  }

  /** Calls with a response still to come (a session with one is busy: it is not evicted). */
  get pending(): number {
    return this.#byRequest.size;
  }

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.#supported = versions;
  }

  /** Serves a POST whose body was read and parsed (`body`: one JSON-RPC message or a batch). */
  post(exchange: HttpExchange, respond: HttpResponder, body: unknown, authInfo: AuthInfo | undefined): void {
    const accepted = this.#accept(exchange, body);
    if ('refuse' in accepted) {
      respond.json(accepted.refuse.status, accepted.refuse.error);
      return;
    }
    const { messages, initialize } = accepted;
    const requests = messages.filter(isJSONRPCRequest);
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, authInfo ? { authInfo } : undefined);
      respond.empty(202);
      return;
    }
    const version = initialize
      ? initialize.params.protocolVersion
      : (exchange.header('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    const stream: Stream = {
      id: String(++this.#nextStream),
      outlet: respond.eventStream({ 'mcp-session-id': this.sessionId }),
      waiting: requests.map((request) => request.id),
    };
    this.#streams.set(stream.id, stream);
    for (const id of stream.waiting) this.#byRequest.set(id, stream);
    const outlet = stream.outlet;
    exchange.onAbort(() => this.#dropped(stream, outlet));
    const resumable = this.#supported.includes(version) && version >= '2025-11-25';
    if (resumable) this.#prime(stream);
    for (const message of messages) {
      if (!isJSONRPCRequest(message) || !resumable) {
        this.onmessage?.(message, authInfo ? { authInfo } : undefined);
        continue;
      }
      const id = message.id;
      // One for the session, made on first use: every request would otherwise hold its own.
      this.#closeStandalone ??= () => this.#endStandalone();
      this.onmessage?.(message, {
        ...(authInfo && { authInfo }),
        closeSSEStream: () => this.#endOutlet(this.#byRequest.get(id)),
        closeStandaloneSSEStream: this.#closeStandalone,
      });
    }
  }

  /**
   * A POST's messages, if this session takes them: a client that reads event streams, a batch within
   * bounds, valid JSON-RPC, a session still open, an `initialize` only first and alone, the protocol
   * header it negotiated, and request ids not already waiting. Else the refusal to answer with.
   */
  #accept(
    exchange: HttpExchange,
    body: unknown,
  ):
    | { readonly messages: JSONRPCMessage[]; readonly initialize: InitializeMessage | undefined }
    | { readonly refuse: { readonly status: number; readonly error: object } } {
    const refuse = (status: number, code: number, message: string) => ({
      refuse: { status, error: rpcError(null, code, message) },
    });
    const accept = exchange.header('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return refuse(
        406,
        HTTP_REFUSED,
        'Not Acceptable: the client must accept both application/json and text/event-stream.',
      );
    if (Array.isArray(body) && body.length > MAX_BATCH)
      return refuse(
        400,
        INVALID_REQUEST,
        `Invalid Request: a batch may carry at most ${MAX_BATCH} messages.`,
      );
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((one) => parseJSONRPCMessage(one));
    } catch {
      return refuse(400, PARSE_ERROR, 'Parse error: Invalid JSON-RPC message');
    }
    if (this.#closed)
      return refuse(404, SESSION_NOT_FOUND, 'Session not found: it ended; start a new one with initialize.');
    const initialize = messages.find((message) => isInitializeRequest(message)) as
      | InitializeMessage
      | undefined;
    if (initialize) {
      if (this.#initialized)
        return refuse(
          400,
          INVALID_REQUEST,
          'Invalid Request: this session is initialized already; send initialize without Mcp-Session-Id to start another.',
        );
      if (messages.length > 1)
        return refuse(
          400,
          INVALID_REQUEST,
          'Invalid Request: initialize must be sent alone, not in a batch.',
        );
    } else {
      const refused = this.#protocolRefusal(exchange);
      if (refused) return { refuse: { status: 400, error: refused } };
    }
    const requests = messages.filter(isJSONRPCRequest);
    const ids = new Set(requests.map((request) => request.id));
    if (ids.size < requests.length || requests.some((request) => this.#byRequest.has(request.id)))
      return refuse(
        400,
        INVALID_REQUEST,
        'Invalid Request: a request id is already in use on this session; give each pending request its own id.',
      );
    if (initialize) {
      this.#initialized = true;
      this.#initializeId = initialize.id;
    }
    return { messages, initialize };
  }

  /** Serves a GET: the standalone stream, or (with `Last-Event-ID`) the rest of a stream the client lost. */
  get(exchange: HttpExchange, respond: HttpResponder): void {
    if (!(exchange.header('accept') ?? '').includes('text/event-stream')) {
      const message = 'Not Acceptable: the client must accept text/event-stream.';
      respond.json(406, rpcError(null, HTTP_REFUSED, message));
      return;
    }
    const refused = this.#protocolRefusal(exchange);
    if (refused) {
      respond.json(400, refused);
      return;
    }
    const lastEventId = exchange.header('last-event-id');
    if (lastEventId) {
      this.#resume(lastEventId, exchange, respond);
      return;
    }
    if (this.#standalone.outlet) {
      const message = 'Conflict: this session has a GET stream open already; only one is allowed.';
      respond.json(409, rpcError(null, HTTP_REFUSED, message));
      return;
    }
    const outlet = respond.eventStream({ 'mcp-session-id': this.sessionId });
    this.#standalone.outlet = outlet;
    exchange.onAbort(() => this.#standaloneDropped(outlet));
  }

  /** Checks a DELETE's protocol header; the caller ends the session when this answers `undefined`. */
  deleteRefusal(exchange: HttpExchange): ReturnType<typeof rpcError> | undefined {
    return this.#protocolRefusal(exchange);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isResponse = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const requestId = isResponse ? message.id : options?.relatedRequestId;
    const hold = this.beforeInitializeAnswer;
    if (
      hold &&
      requestId !== undefined &&
      requestId === this.#initializeId &&
      isJSONRPCResultResponse(message)
    ) {
      this.beforeInitializeAnswer = undefined;
      await hold().catch(() => {});
    }
    const data = JSON.stringify(message);
    if (requestId === undefined) {
      const eventId = this.events.store(STANDALONE, data);
      deliver(this.#standalone, sseEvent(data, eventId));
      return;
    }
    const stream = this.#byRequest.get(requestId);
    if (!stream) {
      // The id came from the client: cut short, and the session id stays out of the message.
      throw new Error(
        `No open request ${JSON.stringify(requestId).slice(0, 64)} on this session: it was answered already, cancelled or never received.`,
      );
    }
    const eventId = this.events.store(stream.id, data);
    deliver(stream, sseEvent(data, eventId));
    if (!isResponse) return;
    if (requestId === this.#initializeId) {
      this.#initializeId = undefined;
      this.#settleInitialized(isJSONRPCResultResponse(message));
    }
    this.#byRequest.delete(requestId);
    stream.waiting = stream.waiting.filter((id) => id !== requestId);
    if (stream.waiting.length === 0) {
      clearTimeout(stream.orphaned);
      this.#streams.delete(stream.id);
      this.#endOutlet(stream);
    }
  }

  /** Writes a keep-alive comment on every open stream (proxies close streams that stay silent). */
  keepAlive(): void {
    for (const stream of this.#streams.values()) deliver(stream, ': keep-alive\n\n');
    deliver(this.#standalone, ': keep-alive\n\n');
  }

  /**
   * Ends the session's calls still waiting for their response with a JSON-RPC error saying why
   * (`reason`: what happened and what to do), so their clients learn it now instead of waiting out
   * a timeout. Call it before closing the session.
   */
  answerPending(reason: string): void {
    for (const requestId of [...this.#byRequest.keys()]) {
      void this.send(rpcError(requestId, INTERNAL_ERROR, reason) as JSONRPCMessage).catch(() => {});
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of this.#streams.values()) {
      clearTimeout(stream.orphaned);
      this.#endOutlet(stream, true);
    }
    this.#streams.clear();
    this.#byRequest.clear();
    this.#endOutlet(this.#standalone, true);
    this.#settleInitialized(false);
    this.onclose?.();
  }

  /**
   * A client back with `Last-Event-ID`: the stream moves to this connection, which first gets what
   * the stream sent after that event, written as fast as the client reads it, then the stream's live
   * events. The stream may still look open here: a dropped connection is often noticed only later (a
   * half-open TCP connection, never). The client resuming it is the one it belongs to (same session,
   * same user), so the old connection is dropped, with whatever it still had queued. Replays are
   * bounded per session (see {@link ReplayBudget}).
   */
  #resume(lastEventId: string, exchange: HttpExchange, respond: HttpResponder): void {
    const sent = this.events.after(lastEventId);
    if (!sent) {
      const message = 'Unknown Last-Event-ID: those events are gone; call again.';
      respond.json(400, rpcError(null, HTTP_REFUSED, message));
      return;
    }
    this.#replays ??= new ReplayBudget(this.#replayLimits, this.#now);
    const replays = this.#replays;
    const refused = replays.take(sent.events.reduce((sum, [, data]) => sum + data.length, 0));
    if (refused) {
      const message =
        refused === 'busy'
          ? 'Too Many Requests: this session is replaying several streams already; wait for one to finish.'
          : 'Too Many Requests: this session re-sent too much lately; wait a few minutes, or start a new session.';
      respond.json(429, rpcError(null, HTTP_REFUSED, message));
      return;
    }
    const pipe = sent.streamId === STANDALONE ? this.#standalone : this.#streams.get(sent.streamId);
    const outlet = respond.eventStream({ 'mcp-session-id': this.sessionId });
    if (pipe) {
      const old = pipe.outlet;
      pipe.outlet = outlet;
      pipe.replaying = { endAfter: false };
      if (pipe === this.#standalone) exchange.onAbort(() => this.#standaloneDropped(outlet));
      else {
        const stream = pipe as Stream;
        clearTimeout(stream.orphaned);
        stream.orphaned = undefined;
        exchange.onAbort(() => this.#dropped(stream, outlet));
      }
      old?.abort();
    }
    void this.#replay(sent.events, pipe, outlet).finally(() => replays.release());
  }

  /**
   * Writes `events` to `outlet` as the client takes them, then what the stream sent meanwhile, until
   * it has caught up; then live events flow to it again. Without a `pipe` (every request of the
   * stream was answered) the replay is all there is, and the connection ends after it. A replay the
   * client left, or that another resumption took over, stops; one whose next event the buffer no
   * longer holds drops the connection (the client resumes from what it has, or calls again).
   */
  async #replay(events: [string, string][], pipe: Pipe | undefined, outlet: EventOutlet): Promise<void> {
    const current = () => !pipe || pipe.outlet === outlet;
    let batch = events;
    let last: string | undefined;
    for (;;) {
      for (const [eventId, data] of batch) {
        if (!current()) return;
        last = eventId;
        if (!outlet.write(sseEvent(data, eventId)) && !(await outlet.drained())) return;
      }
      if (!current()) return;
      if (last === undefined) break;
      const more = this.events.after(last);
      if (!more) return outlet.abort();
      if (more.events.length === 0) break;
      batch = more.events;
    }
    // Caught up: nothing can be stored between the check above and here.
    if (!pipe) return outlet.end();
    const endAfter = pipe.replaying?.endAfter === true;
    pipe.replaying = undefined;
    if (endAfter || this.#closed) this.#endOutlet(pipe);
  }

  /**
   * The client went away from a stream before it ended. A disconnection is not a cancellation: the
   * requests wait `resumeGraceMs` for the client to reconnect with `Last-Event-ID`, then are
   * cancelled, which frees what they hold (a question waiting on a person who left).
   */
  #dropped(stream: Stream, outlet: EventOutlet | undefined): void {
    if (stream.outlet !== outlet || this.#streams.get(stream.id) !== stream) return;
    stream.outlet = undefined;
    stream.replaying = undefined;
    if (this.#resumeGraceMs <= 0) {
      this.#cancel(stream);
      return;
    }
    stream.orphaned = setTimeout(() => {
      stream.orphaned = undefined;
      if (stream.outlet === undefined && this.#streams.get(stream.id) === stream) this.#cancel(stream);
    }, this.#resumeGraceMs);
    stream.orphaned.unref?.();
  }

  #cancel(stream: Stream): void {
    // Cancelled requests get no response (the SDK sends none), so they are forgotten here.
    this.#streams.delete(stream.id);
    for (const requestId of stream.waiting) {
      this.#byRequest.delete(requestId);
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'The client disconnected before the response ended.' },
      });
    }
  }

  /**
   * Ends a stream's connection on the server's side (the call goes on; the client may resume). A
   * replay in progress ends it once it caught up, unless `now`.
   */
  #endOutlet(pipe: Pipe | undefined, now = false): void {
    const outlet = pipe?.outlet;
    if (!pipe || !outlet) return;
    if (pipe.replaying && !now) {
      pipe.replaying.endAfter = true;
      return;
    }
    pipe.outlet = undefined;
    pipe.replaying = undefined;
    outlet.end();
  }

  #endStandalone(): void {
    this.#endOutlet(this.#standalone);
  }

  #standaloneDropped(outlet: EventOutlet): void {
    if (this.#standalone.outlet !== outlet) return;
    this.#standalone.outlet = undefined;
    this.#standalone.replaying = undefined;
  }

  #prime(stream: Stream): void {
    const eventId = this.events.store(stream.id, '');
    stream.outlet?.write(`id: ${eventId}\nretry: ${this.#retryMs}\ndata: \n\n`);
  }

  #protocolRefusal(exchange: HttpExchange): ReturnType<typeof rpcError> | undefined {
    const version = exchange.header('mcp-protocol-version');
    if (version === undefined || this.#supported.includes(version)) return undefined;
    const message = `Bad Request: unsupported protocol version ${version} (supported: ${this.#supported.join(', ')}).`;
    return rpcError(null, HTTP_REFUSED, message);
  }
}

/** Writes to a stream's connection, unless a replay holds it (the replay sends what came meanwhile). */
function deliver(pipe: Pipe, frames: string): void {
  if (!pipe.replaying) pipe.outlet?.write(frames);
}
