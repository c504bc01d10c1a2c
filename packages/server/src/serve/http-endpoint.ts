import {
  type AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { buildSdkServer } from '../run/sdk-server.js';
import { inboundProblem, invalidParamsResponse } from './inbound-guard.js';
import { LegacySessions } from './legacy-sessions.js';
import { readJsonBody } from './read-body.js';
import { jsonRpcError } from './responses.js';

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
  /** Verifies the caller (e.g. a bearer token) and returns its auth info; `undefined` means anonymous. */
  readonly authenticate?: (request: Request) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /** Open 2025-era sessions at most. Default 1000. */
  readonly maxSessions?: number;
  /** A 2025-era session idle this long is closed. Default 30 minutes. */
  readonly sessionIdleMs?: number;
}

/** A web-standard handler for one MCP endpoint serving both eras. */
export interface Endpoint {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
  /** Open 2025-era sessions. */
  readonly sessions: number;
}

/**
 * One Streamable HTTP endpoint for both eras: 2026-07-28 requests are served statelessly by the
 * SDK's `createMcpHandler` (a fresh low-level server per request, nothing kept between rounds);
 * 2025-era clients get real sessions so they can be asked questions mid-call.
 */
export function createEndpoint(app: App, options: EndpointOptions = {}): Endpoint {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const allowedHosts = [...(options.allowedHosts ?? localhostAllowedHostnames())];
  const allowedOrigins = [...(options.allowedOrigins ?? localhostAllowedOrigins())];
  const modern = createMcpHandler(({ era }) => buildSdkServer(app, era), {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => app.log('info', `modern endpoint: ${error.message}`),
  });
  const legacy = new LegacySessions({
    build: () => buildSdkServer(app, 'legacy'),
    principalOf: app.principalOf,
    maxSessions: options.maxSessions ?? 1000,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxBodyBytes,
  });

  return {
    get sessions() {
      return legacy.size;
    },
    async fetch(request) {
      const refused =
        hostHeaderValidationResponse(request, allowedHosts) ??
        originValidationResponse(request, allowedOrigins);
      if (refused) return refused;
      const authInfo = options.authenticate ? await options.authenticate(request) : undefined;
      if (request.method !== 'POST') {
        // GET (the 2025 standalone stream) and DELETE (end a session) belong to 2025 sessions.
        if (request.headers.has('mcp-session-id')) return legacy.handle(request, undefined, authInfo);
        return jsonRpcError(405, -32000, 'Method not allowed: POST JSON-RPC messages to this endpoint.');
      }
      const read = await readJsonBody(request, maxBodyBytes);
      if (!read.ok) return jsonRpcError(read.status, read.code, read.message);
      const problem = inboundProblem(read.body);
      if (problem !== undefined) {
        return new Response(
          JSON.stringify(invalidParamsResponse((read.body as { id?: unknown }).id, problem)),
          {
            status: 400,
            headers: { 'content-type': 'application/json' },
          },
        );
      }
      const options_ = { parsedBody: read.body, ...(authInfo && { authInfo }) };
      if (await isLegacyRequest(request, read.body, { maxRequestBodySize: maxBodyBytes })) {
        return legacy.handle(request, read.body, authInfo);
      }
      return modern.fetch(request, options_);
    },
    async close() {
      await Promise.allSettled([modern.close(), legacy.closeAll()]);
    },
  };
}
