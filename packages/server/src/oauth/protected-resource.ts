import type { AuthInfo } from '@modelcontextprotocol/server';
import { plainTargetOf, type RequestTarget } from '../serve/request-target.js';
import { type Challenge, challengeResponse } from './challenge.js';
import {
  DEFAULT_DPOP_ALGORITHMS,
  DpopBusyError,
  type DpopOptions,
  DpopProofError,
  dpopProofChecker,
} from './dpop-proof.js';
import { boundKeyOf, InvalidTokenError, type TokenVerifier } from './token-verifier.js';

/** Scopes a caller's token must hold, for every request and per tool, prompt or resource. */
export interface RequiredScopes {
  /** Needed for any request to the server. */
  readonly all?: readonly string[];
  /** By tool name; a task's requests (`tasks/get`, `tasks/update`, `tasks/cancel`) need its tool's. */
  readonly tools?: Readonly<Record<string, readonly string[]>>;
  /** By prompt name; `prompts/get` and the prompt's `completion/complete` need them. */
  readonly prompts?: Readonly<Record<string, readonly string[]>>;
  /**
   * By resource URI, or by the URI template a resource template was registered with (then every
   * URI it serves needs them): `resources/read`, `resources/subscribe`, `completion/complete`.
   */
  readonly resources?: Readonly<Record<string, readonly string[]>>;
}

/** How `protectedResource` checks tokens and what it publishes as its OAuth protected resource metadata (RFC 9728). */
export interface ProtectedResourceOptions {
  /** Issuer identifiers of the authorization servers that issue tokens for this server. */
  readonly authorizationServers: readonly string[];
  /** Checks a token: `jwtVerifier(...)`, `introspectionVerifier(...)` or your own. */
  readonly verify: TokenVerifier;
  /**
   * This server's resource identifier (RFC 8707), which tokens must name as their audience.
   * Default: the endpoint's own URL as the server listens (e.g. `http://127.0.0.1:3000/mcp`).
   */
  readonly resource?: string;
  /** Every scope this server uses, published in its metadata. */
  readonly scopesSupported?: readonly string[];
  readonly requiredScopes?: RequiredScopes;
  /** A name for people, published in the metadata. */
  readonly resourceName?: string;
  /**
   * Ask clients for DPoP-bound tokens (RFC 9449): challenges name the DPoP scheme and the proof
   * algorithms, the metadata publishes them, and with `required` bearer tokens are refused.
   * Without it a DPoP-bound token is still accepted, always with its proof.
   */
  readonly dpop?: DpopOptions;
}

/** What to pass to `listen()` (or `endpoint()`) to protect a server. */
export interface ProtectedResource {
  /**
   * Verifies the access token (and the DPoP proof of a DPoP-bound one); refuses with 401 and a
   * challenge when either is missing or invalid.
   */
  readonly authenticate: (request: Request) => Promise<AuthInfo | Response>;
  /**
   * Refuses with 403 `insufficient_scope` a request whose tool, prompt or resource needs more scope.
   * The endpoint calls it for every message of a POST, each member of a batch on its own, with the
   * message's `target` resolved by the server; called with a whole batch, it checks every member.
   */
  readonly authorize: (
    authInfo: AuthInfo | undefined,
    message: unknown,
    target?: RequestTarget,
  ) => Response | undefined;
  /** Serves the protected resource metadata (RFC 9728) at its well-known path. */
  readonly routes: (request: Request) => Response | undefined;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Makes a Parley server an OAuth 2.1 protected resource, as the MCP authorization specification
 * describes: protected resource metadata (RFC 9728) at its well-known path, a `WWW-Authenticate`
 * challenge naming it (with the scope needed) on 401 and 403, tokens verified by a pluggable
 * verifier and required to be for this server (RFC 8707), and scopes per tool, prompt and
 * resource with step-up. A token bound to a key (DPoP, RFC 9449) is accepted only with a fresh
 * proof signed by that key, so a copy of the token alone is useless. The token's subject becomes
 * `ctx.user`, so URL flows and sealed state bind to the person who signed in. stdio servers are
 * unaffected.
 *
 * @example
 * import { createServer } from '@parley/server';
 * import { jwtVerifier, protectedResource } from '@parley/server/oauth';
 *
 * const issuer = 'https://auth.example.com';
 * const protection = protectedResource({
 *   authorizationServers: [issuer],
 *   verify: jwtVerifier({ issuer }),
 *   scopesSupported: ['bookings:read', 'bookings:write'],
 *   requiredScopes: { all: ['bookings:read'], tools: { book_table: ['bookings:write'] } },
 * });
 * await server.listen({ port: 3000, ...protection });
 */
export function protectedResource(options: ProtectedResourceOptions): ProtectedResource {
  if (options.authorizationServers.length === 0) {
    throw new TypeError(
      'protectedResource() needs at least one authorization server issuer in authorizationServers',
    );
  }
  const guard = new ResourceGuard(options);
  // Own properties, not methods: the object is spread into `listen()`'s options.
  return {
    authenticate: (request) => guard.authenticate(request),
    authorize: (authInfo, message, target) => guard.authorize(authInfo, message, target),
    routes: (request) => guard.routes(request),
  };
}

/** What a refusal's challenge says, before the guard adds the metadata URL and the DPoP facts. */
type Refusal = Omit<Challenge, 'resourceMetadata'>;

/** The token accepted, or the refusal to answer with. */
type TokenCheck =
  | { readonly authInfo: AuthInfo }
  | { readonly refuse: Refusal }
  | { readonly busy: Response };

/** How a request presented its access token. */
interface Presented {
  readonly scheme: 'bearer' | 'dpop';
  readonly token: string;
}

/** One protected resource: its options, its DPoP policy, and the resource identifier once known. */
class ResourceGuard {
  readonly #options: ProtectedResourceOptions;
  readonly #required: RequiredScopes;
  readonly #dpop: { readonly algorithms: readonly string[]; readonly required: boolean } | undefined;
  readonly #checkProof: ReturnType<typeof dpopProofChecker>;
  /** The resource identifier (and so the metadata URL) is fixed once known; challenges name it. */
  #knownResource: string | undefined;

  constructor(options: ProtectedResourceOptions) {
    this.#options = options;
    this.#required = options.requiredScopes ?? {};
    this.#knownResource = options.resource;
    this.#dpop =
      options.dpop === undefined
        ? undefined
        : {
            algorithms: options.dpop.algorithms ?? DEFAULT_DPOP_ALGORITHMS,
            required: options.dpop.required === true,
          };
    this.#checkProof = dpopProofChecker(options.dpop);
  }

  async authenticate(request: Request): Promise<AuthInfo | Response> {
    const resource = this.#options.resource ?? endpointUrl(request);
    this.#knownResource ??= resource;
    const checked = await this.#check(request, resource);
    if ('authInfo' in checked) return checked.authInfo;
    if ('busy' in checked) return checked.busy;
    return challengeResponse({
      ...checked.refuse,
      resourceMetadata: metadataUrlOf(resource),
      ...(this.#dpop !== undefined && { dpop: this.#dpop }),
    });
  }

  /** The request's token, verified, bound as it must be, and holding the scopes every request needs. */
  async #check(request: Request, resource: string): Promise<TokenCheck> {
    const presented = this.#presented(request.headers.get('authorization'));
    if ('refuse' in presented) return presented;
    const { scheme, token } = presented;
    let authInfo: AuthInfo;
    try {
      authInfo = await this.#options.verify(token, { resource });
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      return { refuse: { status: 401, error: 'invalid_token', description: error.message, scheme } };
    }
    const bound = await this.#checkBinding(request, resource, presented, boundKeyOf(authInfo.extra));
    if (bound) return bound;
    const all = this.#required.all;
    const missing = missingScopes(all, authInfo);
    if (missing.length === 0) return { authInfo };
    const description = `This server needs the scope ${missing.join(' ')}`;
    return { refuse: { status: 403, error: 'insufficient_scope', scope: all ?? [], description, scheme } };
  }

  /** The scheme and token of an `Authorization` header, or the refusal of a missing or malformed one. */
  #presented(header: string | null): Presented | { readonly refuse: Refusal } {
    if (header === null)
      return { refuse: { status: 401, scope: this.#required.all ?? this.#options.scopesSupported ?? [] } };
    const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
    if (match === null) {
      return {
        refuse: {
          status: 401,
          error: 'invalid_request',
          description:
            'Send the access token as "Authorization: Bearer <token>" (or "DPoP <token>" with a DPoP proof)',
        },
      };
    }
    return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'dpop' : 'bearer', token: match[2]! };
  }

  /**
   * A token bound to a key (DPoP) comes with a fresh proof signed by that key; a bearer token only
   * where the server takes bearer tokens. `undefined` when the token is presented as it must be.
   */
  async #checkBinding(
    request: Request,
    resource: string,
    { scheme, token }: Presented,
    jkt: string | undefined,
  ): Promise<TokenCheck | undefined> {
    if (scheme === 'bearer') {
      if (jkt === undefined && this.#dpop?.required !== true) return undefined;
      const description =
        jkt !== undefined
          ? 'This access token is bound to a key (DPoP): send it as "Authorization: DPoP <token>" with a DPoP proof signed by that key'
          : 'This server accepts only DPoP-bound access tokens: ask the authorization server for one (RFC 9449)';
      return { refuse: { status: 401, error: 'invalid_token', scheme: 'dpop', description } };
    }
    if (jkt === undefined) {
      const description =
        'This access token is not bound to a key: send it as "Authorization: Bearer <token>"';
      return { refuse: { status: 401, error: 'invalid_token', scheme, description } };
    }
    try {
      const urls = [endpointUrl(request), resource];
      await this.#checkProof(request.headers.get('dpop'), {
        method: request.method,
        urls,
        accessToken: token,
        jkt,
      });
      return undefined;
    } catch (error) {
      if (error instanceof DpopBusyError) return { busy: busy(error) };
      if (!(error instanceof DpopProofError)) throw error;
      return { refuse: { status: 401, error: 'invalid_dpop_proof', description: error.message, scheme } };
    }
  }

  authorize(authInfo: AuthInfo | undefined, message: unknown, target?: RequestTarget): Response | undefined {
    const required = this.#required;
    const targets = target ? [target] : (Array.isArray(message) ? message : [message]).map(plainTargetOf);
    const needed = [...new Set(targets.flatMap((one) => (one ? scopesFor(required, one) : [])))];
    if (needed.length === 0) return undefined;
    // No auth info (authenticate was not used) holds no scope: refused, never waved through.
    const missing = authInfo ? missingScopes(needed, authInfo) : needed;
    if (missing.length === 0) return undefined;
    const resource = this.#options.resource ?? this.#knownResource;
    return challengeResponse({
      status: 403,
      error: 'insufficient_scope',
      scope: [...new Set([...(required.all ?? []), ...needed])],
      description: `This request needs the scope ${missing.join(' ')}`,
      resourceMetadata: resource ? metadataUrlOf(resource) : WELL_KNOWN,
      ...(this.#dpop !== undefined && { dpop: this.#dpop }),
      ...(boundKeyOf(authInfo?.extra) !== undefined && { scheme: 'dpop' as const }),
    });
  }

  routes(request: Request): Response | undefined {
    if (request.method !== 'GET') return undefined;
    const url = new URL(request.url);
    if (!url.pathname.startsWith(WELL_KNOWN)) return undefined;
    const options = this.#options;
    const resource = options.resource ?? `${url.origin}${url.pathname.slice(WELL_KNOWN.length) || '/'}`;
    if (options.resource !== undefined && metadataUrlOf(resource) !== `${url.origin}${url.pathname}`)
      return undefined;
    const dpop = this.#dpop;
    const metadata = {
      resource,
      authorization_servers: options.authorizationServers,
      bearer_methods_supported: ['header'],
      ...(options.scopesSupported !== undefined && { scopes_supported: options.scopesSupported }),
      ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
      ...(dpop !== undefined && { dpop_signing_alg_values_supported: dpop.algorithms }),
      ...(dpop?.required === true && { dpop_bound_access_tokens_required: true }),
    };
    return new Response(JSON.stringify(metadata), {
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    });
  }
}

/** Where a resource's metadata is published (RFC 9728: the well-known path before the resource's path). */
function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}`;
}

/** The endpoint's URL without query or fragment: the resource identifier when none is given. */
function endpointUrl(request: Request): string {
  const url = new URL(request.url);
  return `${url.origin}${url.pathname}`;
}

function missingScopes(needed: readonly string[] | undefined, authInfo: AuthInfo): string[] {
  const held = new Set(authInfo.scopes);
  return (needed ?? []).filter((scope) => !held.has(scope));
}

/** The scopes what a request acts on needs (none when nothing is required of it). */
function scopesFor(required: RequiredScopes, target: RequestTarget): readonly string[] {
  const table =
    target.kind === 'tool'
      ? required.tools
      : target.kind === 'prompt'
        ? required.prompts
        : required.resources;
  const key = target.kind === 'resource' ? target.uri : target.name;
  return (table && Object.hasOwn(table, key) ? table[key] : undefined) ?? [];
}

/** A good-looking proof there is no room to remember (429 for a key too fast, 503 for a full cache). */
function busy(error: DpopBusyError): Response {
  return new Response(
    JSON.stringify({ error: 'temporarily_unavailable', error_description: error.message }),
    {
      status: error.status,
      headers: {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'retry-after': String(error.retryAfter),
      },
    },
  );
}
