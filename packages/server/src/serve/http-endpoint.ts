import {
  type AuthInfo,
  CLIENT_CAPABILITIES_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  PROTOCOL_VERSION_META_KEY,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { App } from '../app.js';
import { callerKey } from '../http/caller-key.js';
import {
  type HttpExchange,
  type HttpResponder,
  type SlowReaderLimits,
  slowReaderLimits,
} from '../http/http-exchange.js';
import { inboundProblem } from '../http/inbound-guard.js';
import { parseJsonBody } from '../http/read-body.js';
import {
  HEADER_MISMATCH,
  HTTP_REFUSED,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
  PARSE_ERROR,
  rpcError,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../http/rpc-error.js';
import { toFetchExchange } from '../http/web-adapter.js';
import { offerDirectCall } from '../modern/direct-calls.js';
import { ListenStreams } from '../modern/listen-streams.js';
import { type ExchangeSink, ModernMux } from '../modern/modern-mux.js';
import { checkStandardHeaders, paramHeadersOf } from '../modern/standard-headers.js';
import { serveTaskRequest } from '../modern/task-route.js';
import { buildSdkServer } from '../run/sdk-server.js';
import { LegacySessions } from '../sessions/legacy-sessions.js';
import { isTaskMethod } from '../tasks/task-requests.js';
import { type RequestTarget, targetOf } from './request-target.js';

/** Options of the `/mcp` endpoint. */
export interface EndpointOptions {
  /**
   * Hostnames the `Host` header may name (DNS-rebinding protection). Defaults to the loopback
   * names; list your public hostnames when you serve beyond loopback.
   */
  readonly allowedHosts?: readonly string[];
  /** Origin hostnames a browser page may call from. Defaults to the loopback names. */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Verifies the caller (e.g. a bearer token) from the request's URL and headers, and returns its
   * auth info; `undefined` means anonymous. Return a `Response` to refuse the request with it (an
   * OAuth protected resource's 401 with `WWW-Authenticate`; see `@parley/server/oauth`).
   */
  readonly authenticate?: (
    request: Request,
  ) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;
  /**
   * Decides, once the body is read, whether the caller may make a request (e.g. the scopes a tool
   * needs); return a `Response` to refuse it (403 `insufficient_scope`). Called for every JSON-RPC
   * message of a POST, each member of a batch on its own, before any of them is served; one refusal
   * refuses the whole POST. `target` is what the message acts on as this server resolves it: the
   * tool, prompt, or resource (its registered URI or URI template), and for `tasks/*` the tool whose
   * call became the task.
   */
  readonly authorize?: (
    authInfo: AuthInfo | undefined,
    message: unknown,
    target: RequestTarget | undefined,
  ) => Response | undefined | Promise<Response | undefined>;
  /**
   * Open 2025-era sessions at most. Default 1000. Sessions with nothing in flight are evicted
   * (least recently used first, anonymous ones first) before anyone is refused.
   */
  readonly maxSessions?: number;
  /** Open 2025-era sessions of one signed-in user at most. Default 20. */
  readonly maxSessionsPerUser?: number;
  /** Open 2025-era sessions of all anonymous callers together at most. Default 100. */
  readonly maxAnonymousSessions?: number;
  /**
   * Open 2025-era sessions of the anonymous callers of one address at most (an IPv6 address counts
   * by its /64), so one address cannot take the anonymous quota from everyone else. Default 10. Behind
   * a proxy every caller has the proxy's address: pass the client's own to `endpoint.fetch(request,
   * { remoteAddress })`.
   */
  readonly maxSessionsPerAddress?: number;
  /**
   * Requests one 2025-era session may have in flight (each holds its response stream open until it
   * is answered, a call waiting on a person among them). More are refused with 429 and a message
   * saying so. Default 2000.
   */
  readonly maxCallsPerSession?: number;
  /**
   * Requests one user may have in flight across all their 2025-era sessions (anonymous callers:
   * per address). More are refused with 429 and a message saying so. Default 4000.
   */
  readonly maxCallsPerUser?: number;
  /** 2026-07-28 `subscriptions/listen` streams: how many, and how large their filters. */
  readonly subscriptions?: {
    /** Streams open at once, in all. Default: `maxSessions` (1000). */
    readonly maxStreams?: number;
    /**
     * Streams one caller may hold: a signed-in user, or an anonymous caller by network address (an
     * IPv6 one by its /64). Default 10.
     */
    readonly maxStreamsPerCaller?: number;
    /** URIs one stream's `resourceSubscriptions` may name. Default 100. */
    readonly maxResourceSubscriptions?: number;
    /** Characters of one of those URIs. Default 2048. */
    readonly maxUriChars?: number;
  };
  /**
   * Event streams (SSE) to clients that read slowly or not at all: a client that takes nothing of
   * what is queued for `writeTimeoutMs` (30000), or lets more than `maxQueuedBytes` (1 MiB) pile up
   * behind a full socket, is disconnected (a 2025 client resumes with `Last-Event-ID`).
   */
  readonly eventStreams?: Partial<SlowReaderLimits>;
  /** A 2025-era session idle this long is closed. Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * How long a 2025 client waits before reconnecting to an SSE stream the server closed (`retry`),
   * in milliseconds. Default 1000. See `ctx.closeStream()`.
   */
  readonly sseRetryMs?: number;
  /**
   * How long a 2025 call whose client lost its stream (the connection dropped; no cancellation, no
   * DELETE) waits for the client to reconnect with `Last-Event-ID` before it is cancelled, in
   * milliseconds. The spec says a disconnection is not a cancellation, so a client on a flaky
   * network resumes its call; an abandoned call (and its question) is let go after this. Default
   * 5000; 0 cancels at once.
   */
  readonly resumeGraceMs?: number;
}

/** The stateless revisions this endpoint serves (2025 revisions are negotiated by `initialize`). */
const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/**
 * One Streamable HTTP endpoint for both eras. 2026-07-28 requests pass the SDK's own inbound
 * validation ladder (`classifyInboundRequest`) and are served by one long-lived modern SDK server
 * (see {@link ModernMux}); 2025-era clients get real sessions so they can be asked questions
 * mid-call.
 */
export class Endpoint {
  readonly #app: App;
  readonly #allowedHosts: string[];
  /** The last Host header that passed (requests repeat it: the check parses it as a URL). */
  #hostPassed: string | undefined;
  readonly #allowedOrigins: string[];
  readonly #maxBodyBytes: number;
  readonly #authenticate: EndpointOptions['authenticate'];
  readonly #authorize: EndpointOptions['authorize'];
  readonly #legacy: LegacySessions;
  readonly #slowReaders: SlowReaderLimits;
  readonly #mux = new ModernMux();
  readonly #listeners: ListenStreams;
  #started: Promise<{ close(): Promise<void> }> | undefined;
  /** Whether the shared modern server is started and pinned (requests then go straight to it). */
  #ready = false;
  /** Set while `close({ drainMs })` waits for the requests in flight: new requests are refused. */
  #draining = false;

  constructor(app: App, options: EndpointOptions = {}) {
    this.#app = app;
    this.#listeners = new ListenStreams({
      hub: app.changes,
      serverInfo: app.info,
      supported: () => ({
        tools: app.declares('tools'),
        prompts: app.declares('prompts'),
        resources: app.declares('resources'),
      }),
      limits: {
        maxStreams: whole(
          options.subscriptions?.maxStreams ?? options.maxSessions ?? 1000,
          'subscriptions.maxStreams',
        ),
        maxStreamsPerCaller: whole(
          options.subscriptions?.maxStreamsPerCaller ?? 10,
          'subscriptions.maxStreamsPerCaller',
        ),
        maxResourceSubscriptions: whole(
          options.subscriptions?.maxResourceSubscriptions ?? 100,
          'subscriptions.maxResourceSubscriptions',
        ),
        maxUriChars: whole(options.subscriptions?.maxUriChars ?? 2048, 'subscriptions.maxUriChars'),
      },
    });
    this.#allowedHosts = [...(options.allowedHosts ?? localhostAllowedHostnames())];
    this.#allowedOrigins = [...(options.allowedOrigins ?? localhostAllowedOrigins())];
    this.#maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.#slowReaders = slowReaderLimits(options.eventStreams);
    this.#authenticate = options.authenticate;
    this.#authorize = options.authorize;
    this.#legacy = new LegacySessions({
      build: () => buildSdkServer(app, 'legacy'),
      principalOf: app.principalOf,
      maxSessions: options.maxSessions ?? 1000,
      maxSessionsPerUser: options.maxSessionsPerUser ?? 20,
      maxAnonymousSessions: options.maxAnonymousSessions ?? 100,
      maxSessionsPerAddress: options.maxSessionsPerAddress ?? 10,
      maxCallsPerSession: options.maxCallsPerSession ?? 2000,
      maxCallsPerUser: options.maxCallsPerUser ?? 4000,
      idleMs: options.sessionIdleMs ?? 30 * 60_000,
      sseRetryMs: options.sseRetryMs ?? 1000,
      resumeGraceMs: options.resumeGraceMs ?? 5000,
      router: app.sessionRouter,
      idPrefix: app.sessionIdPrefix,
    });
    app.sessionRouter?.attach({
      serve: (request) => this.#fetch(request, false),
      sessions: () => this.#legacy.records(),
      idleMs: this.#legacy.idleMs,
      stateKeys: app.sharedStateKeys(),
      log: app.log,
    });
  }

  /** Open 2025-era sessions. */
  get sessions(): number {
    return this.#legacy.size;
  }

  /** 2026-07-28 requests in flight. */
  get inFlight(): number {
    return this.#mux.size;
  }

  /** Serves one HTTP request to the endpoint. */
  serve(exchange: HttpExchange, respond: HttpResponder): Promise<void> {
    return this.#serve(exchange, respond, true);
  }

  /** `mayForward`: false for a request another replica passed here (it is never passed on again). */
  async #serve(exchange: HttpExchange, respond: HttpResponder, mayForward: boolean): Promise<void> {
    const refused = this.#hostOrOriginRefusal(exchange);
    if (refused) return respond.json(403, refused);
    let authInfo: AuthInfo | undefined;
    if (this.#authenticate) {
      const authenticated = await this.#authenticate(exchange.webRequest());
      if (authenticated instanceof Response) return respond.web(authenticated);
      authInfo = authenticated;
    }
    if (exchange.method !== 'POST') {
      // GET (the 2025 standalone stream) and DELETE (end a session) belong to 2025 sessions.
      if (exchange.header('mcp-session-id') !== undefined)
        return this.#legacy.handle(exchange, respond, undefined, authInfo, mayForward);
      const message = 'Method not allowed: POST JSON-RPC messages to this endpoint.';
      return respond.json(405, rpcError(null, HTTP_REFUSED, message));
    }
    const typeRefusal = postTypeRefusal(exchange);
    if (typeRefusal) return respond.json(typeRefusal.status, typeRefusal.error);
    const read = parseJsonBody(await exchange.readBody(this.#maxBodyBytes), this.#maxBodyBytes);
    if (!read.ok) return respond.json(read.status, rpcError(null, read.code, read.message));
    const id = (read.body as { id?: unknown } | null)?.id;
    const problem = inboundProblem(read.body);
    if (problem !== undefined) return respond.json(400, rpcError(id, INVALID_PARAMS, problem));
    if (this.#authorize) {
      const refusal = await this.#authorizeEach(this.#authorize, authInfo, read.body);
      if (refusal !== undefined) return respond.web(refusal);
    }
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: exchange.header('mcp-protocol-version'),
      mcpMethodHeader: exchange.header('mcp-method'),
      mcpNameHeader: exchange.header('mcp-name'),
      body: read.body,
    });
    if (route.kind === 'reject')
      return respond.json(route.httpStatus, rpcError(id, route.code, route.message, route.data));
    if (route.kind === 'legacy') {
      // While the server drains before it stops, answers and notifications still reach the 2025
      // calls in flight; new sessions and calls go elsewhere (2026-07-28 requests, short and
      // stateless, are served as usual).
      if (this.#draining && carriesRequest(read.body))
        return respond.json(503, rpcError(id, HTTP_REFUSED, DRAINING));
      const body = { parsed: read.body, bytes: read.bytes };
      return this.#legacy.handle(exchange, respond, body, authInfo, mayForward);
    }
    return this.#serveModernRoute(route, id, authInfo, exchange, respond);
  }

  /** The refusal of a request whose Host or Origin this endpoint does not serve (DNS rebinding). */
  #hostOrOriginRefusal(exchange: HttpExchange): object | undefined {
    const hostHeader = exchange.header('host');
    if (hostHeader === undefined || hostHeader !== this.#hostPassed) {
      const host = validateHostHeader(hostHeader, this.#allowedHosts);
      if (!host.ok) return rpcError(null, HTTP_REFUSED, `Forbidden: ${host.message}`);
      this.#hostPassed = hostHeader;
    }
    const origin = validateOriginHeader(exchange.header('origin'), this.#allowedOrigins);
    if (!origin.ok) return rpcError(null, HTTP_REFUSED, `Forbidden: ${origin.message}`);
    return undefined;
  }

  /**
   * A 2026-07-28 request the SDK's ladder classified: a revision this server speaks, its standard
   * headers matching its body, then served by what it asks for (a listen stream, a task request,
   * or the shared modern server).
   */
  #serveModernRoute(
    route: Extract<ReturnType<typeof classifyInboundRequest>, { kind: 'modern' }>,
    id: unknown,
    authInfo: AuthInfo | undefined,
    exchange: HttpExchange,
    respond: HttpResponder,
  ): void | Promise<void> {
    const requested = route.classification.revision;
    if (requested !== undefined && !MODERN_REVISIONS.includes(requested)) {
      const data = { supported: MODERN_REVISIONS, requested };
      const message = `Unsupported protocol version: ${requested}`;
      return respond.json(400, rpcError(id, UNSUPPORTED_PROTOCOL_VERSION, message, data));
    }
    if (route.messageKind === 'notification') return respond.empty(202);
    const mismatch = checkStandardHeaders(
      route.message,
      (name) => exchange.header(name),
      (tool) => paramHeadersOf(this.#app.tools.get(tool)?.listing.inputSchema),
    );
    if (mismatch)
      return respond.json(mismatch.status, rpcError(id, mismatch.code, mismatch.message, mismatch.data));
    const caller = callerKey(this.#app.principalOf(authInfo), exchange.remoteAddress);
    if (route.message.method === 'subscriptions/listen')
      return this.#listeners.serve(route.message, exchange, respond, caller);
    if (isTaskMethod(route.message.method))
      return serveTaskRequest(this.#app, route.message, this.#app.principalOf(authInfo), respond);
    return this.#serveModern(route.message, authInfo, caller, exchange, respond);
  }

  /**
   * The one scope (authorization) check: every message of the body meets it, a single message or
   * each member of a batch, whatever era or session it is for. The first refusal answers the POST.
   */
  async #authorizeEach(
    authorize: NonNullable<EndpointOptions['authorize']>,
    authInfo: AuthInfo | undefined,
    body: unknown,
  ): Promise<Response | undefined> {
    const principal = this.#app.principalOf(authInfo);
    for (const message of Array.isArray(body) ? body : [body]) {
      const refusal = await authorize(authInfo, message, targetOf(this.#app, message, principal));
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  }

  /**
   * The endpoint as a web-standard fetch handler. Pass the peer's `remoteAddress` when your runtime
   * tells it (per-address budgets of anonymous callers count by it; without it they share one).
   */
  fetch = (request: Request, info?: { readonly remoteAddress?: string }): Promise<Response> =>
    this.#fetch(request, true, info?.remoteAddress);

  #fetch(request: Request, mayForward: boolean, remoteAddress?: string): Promise<Response> {
    const { exchange, responder, response } = toFetchExchange(request, remoteAddress, this.#slowReaders);
    void this.#serve(exchange, responder, mayForward).catch((error: unknown) => {
      this.#app.log('error', `HTTP endpoint: ${error instanceof Error ? error.message : String(error)}`);
      responder.json(500, rpcError(null, INTERNAL_ERROR, 'Internal error'));
    });
    return response;
  }

  /**
   * Ends the endpoint: its 2025 sessions (calls still running get an error saying the server
   * stopped), listen streams and the fleet's router. With `drainMs`, it first waits up to that long
   * for the requests in flight (2025 calls waiting on a person among them, requests passed through
   * the router, 2026-07-28 requests) to end on their own, taking the answers and notifications they
   * need and refusing new 2025 sessions and calls (503, "send it again"): a rolling restart then
   * cuts only the calls that outlast the drain.
   */
  async close(options: { readonly drainMs?: number } = {}): Promise<void> {
    const drainMs = options.drainMs ?? 0;
    this.#draining = drainMs > 0;
    const busy = () => this.#legacy.inFlight + (this.#app.sessionRouter?.inFlight ?? 0) + this.#mux.size;
    for (const until = Date.now() + drainMs; busy() > 0 && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
    const started = this.#started;
    this.#listeners.closeAll();
    await Promise.allSettled([
      this.#app.sessionRouter?.close(),
      this.#legacy.closeAll(),
      started?.then((serving) => serving.close()),
    ]);
  }

  #serveModern(
    message: JSONRPCRequest,
    authInfo: AuthInfo | undefined,
    caller: string,
    exchange: HttpExchange,
    respond: HttpResponder,
  ): void | Promise<void> {
    if (!this.#ready) {
      return this.#start().then(() => this.#serveModern(message, authInfo, caller, exchange, respond));
    }
    const accept = exchange.header('accept');
    const sink = new HttpSink(respond, accept === undefined || /text\/event-stream|\*\/\*/.test(accept));
    if (message.method === 'tools/call' && this.#app.directToolCalls !== undefined) {
      const offered = offerDirectCall(this.#app, message, {
        principal: this.#app.principalOf(authInfo),
        authInfo,
        sink,
        onAbort: (abort) => exchange.onAbort(abort),
        // Internal: the middleware chain ran around the direct call already.
        serveAsUsual: (served, to) =>
          exchange.onAbort(this.#mux.exchange(served, { authInfo, caller }, to, true)),
      });
      if (offered) return;
    }
    exchange.onAbort(this.#mux.exchange(message, { authInfo, caller }, sink));
  }

  /** Starts the shared modern server once: `legacy: 'reject'` so nothing can pin it to 2025. */
  #start(): Promise<unknown> {
    this.#started ??= (async () => {
      const serving = serveStdio(
        () => buildSdkServer(this.#app, 'modern', 'http', (sdk) => this.#mux.arrivalOf(sdk.mcpReq.id)),
        {
          legacy: 'reject',
          transport: this.#mux,
          onerror: (error) => this.#app.log('info', `modern endpoint: ${error.message}`),
        },
      );
      // Pin the connection to the modern era now, with a request carrying a valid envelope.
      await new Promise<void>((resolve) => {
        this.#mux.exchange(
          {
            jsonrpc: '2.0',
            id: 'parley-pin',
            method: 'tools/list',
            params: {
              _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: {} },
            },
          },
          { authInfo: undefined, caller: 'server' },
          { notify: () => {}, finish: () => resolve() },
          true,
        );
      });
      this.#ready = true;
      return serving;
    })();
    return this.#started;
  }
}

/** What a request that reaches a draining server hears. */
const DRAINING =
  'This server is stopping: send the request again (another replica, or this server once it restarted, will serve it).';

/** Whether a body (one message or a batch) holds a JSON-RPC request, not only responses and notifications. */
function carriesRequest(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some(
    (message) =>
      typeof message === 'object' &&
      message !== null &&
      typeof (message as { method?: unknown }).method === 'string' &&
      (message as { id?: unknown }).id !== undefined,
  );
}

// The SDK's ladder table: how the protocol's own rejections map to HTTP statuses.
const DISPATCH_ERROR_STATUS: Readonly<Record<number, number>> = {
  [PARSE_ERROR]: 400,
  [INVALID_REQUEST]: 400,
  [METHOD_NOT_FOUND]: 404,
  [UNSUPPORTED_PROTOCOL_VERSION]: 400,
  [MISSING_CLIENT_CAPABILITY]: 400,
  [HEADER_MISMATCH]: 400,
};

/**
 * The HTTP status of a 2026-07-28 response: errors the SDK produced before any handler ran take the
 * ladder's status; a handler's errors stay in-band (200), except a missing client capability (-32021), whose 400 the spec ties to
 * the error itself.
 */
function httpStatusFor(response: object, beforeDispatch: boolean): number {
  if (!('error' in response)) return 200;
  const code = (response as { error: { code: number } }).error.code;
  if (code === MISSING_CLIENT_CAPABILITY) return 400;
  return beforeDispatch ? (DISPATCH_ERROR_STATUS[code] ?? 200) : 200;
}

/**
 * Where one 2026-07-28 request's messages go: mid-call notifications open an event stream (for a
 * client that reads one), else the response is plain JSON with the status the ladder gives it.
 */
class HttpSink implements ExchangeSink {
  readonly #respond: HttpResponder;
  /** A JSON-only client gets the result without mid-call notifications. */
  readonly #canStream: boolean;
  #stream: ((message: unknown | null) => void) | undefined;

  constructor(respond: HttpResponder, canStream: boolean) {
    this.#respond = respond;
    this.#canStream = canStream;
  }

  notify(notification: JSONRPCNotification): void {
    if (!this.#canStream) return;
    this.#stream ??= this.#respond.openStream();
    this.#stream(notification);
  }

  finish(response: JSONRPCResultResponse | JSONRPCErrorResponse, beforeDispatch: boolean): void {
    const stream = this.#stream;
    if (stream) {
      stream(response);
      stream(null);
      return;
    }
    this.#respond.json(httpStatusFor(response, beforeDispatch), response);
  }
}

/** The refusal of a POST whose body is not JSON, or whose client does not read JSON answers. */
function postTypeRefusal(
  exchange: HttpExchange,
): { readonly status: number; readonly error: object } | undefined {
  if (!isJsonContentType(exchange.header('content-type'))) {
    const message = 'Unsupported Media Type: send Content-Type: application/json.';
    return { status: 415, error: rpcError(null, HTTP_REFUSED, message) };
  }
  const accept = exchange.header('accept');
  if (accept !== undefined && !/application\/json|\*\/\*/.test(accept)) {
    const message = 'Not Acceptable: the client must accept application/json.';
    return { status: 406, error: rpcError(null, HTTP_REFUSED, message) };
  }
  return undefined;
}

/** Creates the endpoint. */
export function createEndpoint(app: App, options?: EndpointOptions): Endpoint {
  return new Endpoint(app, options);
}

/** A count option: a whole number of at least 1, or an error that names the option. */
function whole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`${name} must be a whole number of at least 1 (got ${value}).`);
  return value;
}
