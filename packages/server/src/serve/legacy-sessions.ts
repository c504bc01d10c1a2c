import {
  type AuthInfo,
  isInitializeRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { cancelOnDisconnect, requestIdsOf } from './cancel-on-disconnect.js';
import { HTTP_REFUSED, rpcError, SESSION_NOT_FOUND } from './rpc-error.js';

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly principal: string | undefined;
  lastSeen: number;
}

export interface LegacySessionOptions {
  /** Builds the SDK server for a new 2025-era session. */
  readonly build: () => Server;
  readonly principalOf: (authInfo: AuthInfo | undefined) => string | undefined;
  readonly maxSessions: number;
  readonly idleMs: number;
  readonly maxBodyBytes: number;
  readonly now?: () => number;
}

/**
 * Serves 2025-era clients over Streamable HTTP with real sessions (`Mcp-Session-Id`), so the server
 * can send them `elicitation/create` mid-call; the SDK's default stateless legacy serving cannot.
 * A session is bound to the user who opened it.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #options: LegacySessionOptions;
  readonly #now: () => number;

  constructor(options: LegacySessionOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    this.#sweep();
    const principal = this.#options.principalOf(authInfo);
    const sessionId = request.headers.get('mcp-session-id');
    const handleOptions = { ...(parsedBody !== undefined && { parsedBody }), ...(authInfo && { authInfo }) };
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      if (!session || session.principal !== principal) {
        const message = 'Session not found: it ended or expired; start a new session with initialize.';
        return Response.json(rpcError(null, SESSION_NOT_FOUND, message), { status: 404 });
      }
      session.lastSeen = this.#now();
      const { transport } = session;
      const response = await transport.handleRequest(request, handleOptions);
      return cancelOnDisconnect(response, requestIdsOf(parsedBody), (notification) =>
        transport.onmessage?.(notification),
      );
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
      const message = 'Bad Request: Mcp-Session-Id header is required; send initialize first.';
      return Response.json(rpcError(null, HTTP_REFUSED, message), { status: 400 });
    }
    if (this.#sessions.size >= this.#options.maxSessions) {
      return Response.json(rpcError(null, HTTP_REFUSED, 'Too many open sessions; try again later.'), {
        status: 503,
      });
    }
    const server = this.#options.build();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: this.#options.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, server, principal, lastSeen: this.#now() });
      },
      onsessionclosed: (id) => {
        this.#drop(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, handleOptions);
  }

  /** Ends every session (their pending questions are rejected). */
  async closeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  #drop(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    if (session) void session.server.close().catch(() => {});
  }

  #sweep(): void {
    const cutoff = this.#now() - this.#options.idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen < cutoff) this.#drop(id);
    }
  }
}
