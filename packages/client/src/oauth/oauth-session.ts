import { extractWWWAuthenticateParams, type FetchLike } from '@modelcontextprotocol/client';
import type * as oauth from 'oauth4webapi';
import { type Authorize, authorizationCodeGrant, refreshGrant } from './authorization-code.js';
import { discoverAuthorizationServer, discoverResource } from './discovery.js';
import { type DpopPolicy, dpopAlgorithm, dpopHandle, dpopRequest, newDpopKey } from './dpop.js';
import type { Grant, GrantResult } from './grant.js';
import { obtainClient, type PreRegisteredClient } from './registration.js';
import { addsScope, chooseScope } from './scopes.js';
import { SignInError } from './sign-in-error.js';
import { memoryStore, type OAuthStore, type StoredAuth, type StoredDpopKey } from './store.js';
import { type AuthChallenge, parseChallenges } from './www-authenticate.js';

/** What every session takes, however it signs in. */
export interface OAuthSessionCommonOptions {
  /** Keeps sign-ins between connections. Default: in memory, for this process only. */
  store?: OAuthStore;
  /** The name authorization servers show the person. Default `Parley`. */
  clientName?: string;
  /** `native` (default) for a program on the person's device, `web` for a page a host serves. */
  applicationType?: 'native' | 'web';
  /** An HTTPS URL serving this client's metadata document (used where servers support it). */
  clientMetadataUrl?: string;
  /** Clients registered beforehand, by the authorization server's issuer identifier. */
  clients?: Readonly<Record<string, PreRegisteredClient>>;
  /** Ask for `offline_access` (a refresh token) where the server offers it. Default true. */
  offlineAccess?: boolean;
  /** Re-authorizations one request may trigger for more scope (403 insufficient_scope). Default 2. */
  maxStepUps?: number;
  /** The fetch used for the MCP server and the authorization server. Default: the global fetch. */
  fetch?: FetchLike;
  /**
   * When to bind tokens to a key with DPoP (RFC 9449), so that a copy of a token is useless
   * without the key. Default `auto`: whenever the server asks for it (a `DPoP` challenge, or its
   * metadata requires it) and its authorization server offers it; nonces either of them asks for
   * are sent. The key is kept in the store with the tokens.
   */
  dpop?: DpopPolicy;
  /**
   * Told what the session did that its host should know of: a grant with no `issuer` sent its
   * credentials to the first authorization server a server named, and pinned it. Default: a Node
   * process warning (code `PARLEY_ISSUER_PINNED`), else `console.warn`.
   */
  onWarning?: (message: string) => void;
}

/** A person signs in at the authorization server's page: the authorization code flow. */
export interface InteractiveSignInOptions {
  /**
   * Where the authorization server sends the browser back to (registered with the server). A
   * function is called when a sign-in starts: a native app can start its loopback listener on a
   * free port then (RFC 8252 §7.3: authorization servers accept any port on a loopback redirect).
   */
  redirectUri: string | (() => string | Promise<string>);
  /** Shows the authorization page to the person; resolves with the URL the browser came back to. */
  authorize: Authorize;
  grant?: undefined;
}

/**
 * Nobody at a browser: the host signs in with a grant, `clientCredentials()` (a service),
 * `workloadIdentity()` (a workload's platform JWT) or `enterpriseManaged()` (the person's
 * single sign-on at the company's identity provider).
 */
export interface HeadlessSignInOptions {
  grant: Grant;
  redirectUri?: undefined;
  authorize?: undefined;
}

/**
 * How a host signs in to protected MCP servers: a person at the authorization server's page
 * (`redirectUri` and `authorize`), or a grant that needs nobody (`grant`).
 *
 * @example
 * const session = oauthSession({
 *   redirectUri: 'http://127.0.0.1:8976/callback',
 *   authorize: async (url) => openInBrowserAndWaitForRedirect(url), // resolves with the callback URL
 * });
 * const client = await connect('https://mcp.example.com/mcp', { ui, fetch: session.fetch });
 *
 * @example
 * const agent = oauthSession({
 *   grant: clientCredentials({ clientId: 'report-bot', clientSecret: process.env.REPORT_BOT_SECRET }),
 * });
 */
export type OAuthSessionOptions = OAuthSessionCommonOptions &
  (InteractiveSignInOptions | HeadlessSignInOptions);

/** A host's sign-ins: a `fetch` for the MCP transport that signs in when a server asks. */
export interface OAuthSession {
  /** Pass as `connect(url, { fetch })`: adds the token, signs in on 401, steps up on 403. */
  readonly fetch: FetchLike;
  /** Signs in to the server now (before connecting), unless a stored token is still valid. */
  signIn(server: string | URL): Promise<void>;
  /** Forgets the server's tokens, client registration and DPoP key. */
  signOut(server: string | URL): Promise<void>;
}

interface Challenge {
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
  readonly error?: string;
  /** Every challenge of the header, to see whether the server asks for DPoP. */
  readonly challenges: readonly AuthChallenge[];
}

/** Refresh a token this long before it expires, so it does not expire in flight. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * A sign-in session for MCP servers protected by OAuth 2.1, as the MCP authorization
 * specification describes: discovery (RFC 9728, RFC 8414, OpenID Connect), registration (a
 * client registered beforehand, a Client ID Metadata Document, or RFC 7591 with
 * `application_type`), the authorization code grant with PKCE, `resource` (RFC 8707) and `iss`
 * (RFC 9207) checks, scope step-up with a limit, refresh tokens, and moving to a new
 * authorization server; or, with `grant`, client credentials, a workload JWT or enterprise-managed
 * authorization. Tokens are DPoP-bound when the server asks (RFC 9449). Tokens only ever go to
 * the server they were issued for.
 */
export function oauthSession(options: OAuthSessionOptions): OAuthSession {
  const baseFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const store = options.store ?? memoryStore();
  const maxStepUps = options.maxStepUps ?? 2;
  const grant = options.grant;
  const running = new Map<string, Promise<void>>();
  const warn = options.onWarning ?? defaultWarning;
  /** The issuer a grant with none of its own first sent its credentials to: the only one from then on. */
  let firstIssuer: string | undefined;
  // One DPoP handle per server and key: it keeps the nonces servers hand out.
  const handles = new Map<string, { readonly id: string; readonly handle: Promise<oauth.DPoPHandle> }>();

  function handleFor(server: string, key: StoredDpopKey): Promise<oauth.DPoPHandle> {
    const id = `${key.alg} ${key.jwk.x ?? key.jwk.n ?? ''}`;
    const known = handles.get(server);
    if (known?.id === id) return known.handle;
    const handle = dpopHandle(key);
    handles.set(server, { id, handle });
    return handle;
  }

  /** A stored record this session may use: one from the same way of signing in, as the same client. */
  async function load(server: string): Promise<StoredAuth | undefined> {
    const record = await store.load(server);
    if (record === undefined || record.grant !== grant?.kind) return undefined;
    if (grant?.clientId !== undefined && record.client.clientId !== grant.clientId) return undefined;
    return record;
  }

  /** One sign-in per server at a time; a request arriving meanwhile waits for it. */
  function exclusive(server: string, work: () => Promise<void>): Promise<void> {
    const current = running.get(server);
    if (current !== undefined) return current;
    const next = work().finally(() => running.delete(server));
    running.set(server, next);
    return next;
  }

  async function signIn(server: URL, challenge: Challenge, previous: StoredAuth | undefined): Promise<void> {
    const resource = await discoverResource(server, challenge.resourceMetadataUrl, baseFetch);
    const as = await discoverAuthorizationServer(resource.issuer, baseFetch);
    if (grant !== undefined) pinIssuer(server, as.issuer, previous);
    // A client and its tokens belong to one authorization server; after a move neither is reused.
    const sameServer = previous !== undefined && previous.issuer === as.issuer;
    const scope = chooseScope({
      challenged: challenge.scope,
      previous: sameServer ? previous.tokens?.requestedScope : undefined,
      resourceScopes: resource.scopesSupported,
      serverScopes: as.scopes_supported,
      // A grant signs in again whenever it must; a refresh token would only be one more secret.
      offlineAccess: grant === undefined && (options.offlineAccess ?? true),
    });
    const alg = dpopAlgorithm({
      policy: options.dpop ?? 'auto',
      challenges: challenge.challenges,
      required: resource.dpopRequired === true,
      as,
    });
    const dpopKey =
      alg === undefined
        ? undefined
        : sameServer && previous.dpopKey?.alg === alg
          ? previous.dpopKey
          : await newDpopKey(alg);
    const dpop = dpopKey === undefined ? undefined : await handleFor(server.href, dpopKey);
    const request = { as, resource: resource.resource, scope, dpop, fetchFn: baseFetch };
    const { client, tokens }: GrantResult =
      grant !== undefined
        ? await grant.request(request)
        : await authorizationCode(request, sameServer ? previous : undefined);
    await store.save({
      server: server.href,
      resource: resource.resource,
      issuer: as.issuer,
      client,
      tokens,
      ...(grant !== undefined && { grant: grant.kind }),
      // An authorization server that ignored the proof issued a bearer token: no key to keep.
      ...(dpopKey !== undefined && tokens.tokenType === 'dpop' && { dpopKey }),
    });
  }

  /**
   * A grant's credentials go to one authorization server only: the grant's `issuer`, else the one
   * they went to before (this session's first, or the stored sign-in's), else this one, pinned from
   * now on with a warning (a server that names another later is refused, and nothing is sent).
   */
  function pinIssuer(server: URL, issuer: string, previous: StoredAuth | undefined): void {
    const pinned =
      grant?.issuer ?? firstIssuer ?? (previous?.grant === grant?.kind ? previous?.issuer : undefined);
    if (pinned === undefined) {
      firstIssuer = issuer;
      warn(
        `${server.href} sends sign-ins to ${issuer}: the credentials go there and, from now on, only there. ` +
          `Pin the authorization server they were issued by (issuer: '${issuer}', or parley --issuer ${issuer}) ` +
          'so that a server naming another one never receives them.',
      );
      return;
    }
    if (pinned !== issuer) {
      throw new SignInError(
        `${server.href} sends sign-ins to ${issuer}, but the credentials given are for ${pinned}; nothing was sent`,
        { server: server.href },
      );
    }
  }

  /** A person signs in: the client registered before (same server) or a new one, then the code flow. */
  async function authorizationCode(
    request: Parameters<Grant['request']>[0],
    previous: StoredAuth | undefined,
  ): Promise<GrantResult> {
    if (options.redirectUri === undefined || options.authorize === undefined) {
      throw new SignInError('Signing in needs redirectUri and authorize, or a grant');
    }
    const redirectUri =
      typeof options.redirectUri === 'function' ? await options.redirectUri() : options.redirectUri;
    const client =
      previous?.client ??
      (await obtainClient(
        request.as,
        {
          redirectUri,
          clientName: options.clientName ?? 'Parley',
          applicationType: options.applicationType ?? 'native',
          ...(options.clientMetadataUrl !== undefined && { clientMetadataUrl: options.clientMetadataUrl }),
          ...(options.clients !== undefined && { preRegistered: options.clients }),
        },
        baseFetch,
      ));
    const tokens = await authorizationCodeGrant({
      as: request.as,
      client,
      redirectUri,
      resource: request.resource,
      scope: request.scope,
      authorize: options.authorize,
      fetchFn: baseFetch,
      ...(request.dpop !== undefined && { dpop: request.dpop }),
    });
    return { client, tokens };
  }

  /** A new token without the person when a refresh token allows it; `false` when it does not. */
  async function refresh(server: URL, record: StoredAuth): Promise<boolean> {
    if (record.tokens?.refreshToken === undefined) return false;
    let as: oauth.AuthorizationServer;
    try {
      const resource = await discoverResource(server, undefined, baseFetch);
      if (resource.issuer !== record.issuer) return false;
      as = await discoverAuthorizationServer(record.issuer, baseFetch);
    } catch {
      return false;
    }
    const dpop = record.dpopKey === undefined ? undefined : await handleFor(record.server, record.dpopKey);
    const tokens = await refreshGrant(as, record.client, record.tokens, record.resource, baseFetch, dpop);
    if (tokens === undefined) return false;
    await store.save({ ...record, tokens });
    return true;
  }

  async function send(input: string | URL, init: RequestInit | undefined, record: StoredAuth | undefined) {
    const tokens = record?.tokens;
    if (tokens?.tokenType === 'dpop' && record?.dpopKey !== undefined) {
      const handle = await handleFor(record.server, record.dpopKey);
      return dpopRequest(tokens.accessToken, input, init, handle, baseFetch);
    }
    const headers = new Headers(init?.headers);
    if (tokens !== undefined) headers.set('authorization', `Bearer ${tokens.accessToken}`);
    return baseFetch(input, { ...init, headers });
  }

  async function authorizedFetch(input: string | URL, init?: RequestInit): Promise<Response> {
    const server = serverKey(input);
    const key = server.href;
    let record = await load(key);
    if (record?.tokens?.expiresAt !== undefined && record.tokens.expiresAt - EXPIRY_MARGIN_MS < Date.now()) {
      await exclusive(key, async () => {
        const current = await load(key);
        if (current !== undefined && !(await refresh(server, current))) {
          const { tokens: _expired, ...rest } = current;
          await store.save(rest);
        }
      });
      record = await load(key);
    }
    let response = await send(input, init, record);
    let signedIn = false;
    let stepUps = 0;
    for (;;) {
      const challenge = challengeOf(response);
      if (response.status === 401 && !signedIn) {
        signedIn = true;
        const stale = record;
        await exclusive(key, async () => {
          const current = await load(key);
          // Another request already signed in while this one was in flight.
          if (current?.tokens !== undefined && current.tokens.accessToken !== stale?.tokens?.accessToken)
            return;
          if (
            current !== undefined &&
            challenge.error === 'invalid_token' &&
            (await refresh(server, current))
          )
            return;
          await signIn(server, challenge, current);
        });
      } else if (
        response.status === 403 &&
        challenge.error === 'insufficient_scope' &&
        stepUps < maxStepUps
      ) {
        const current = await load(key);
        const had = current?.tokens?.requestedScope;
        // Asking again for the scopes the token already has would loop: the server will not budge.
        if (current === undefined || !addsScope(challenge.scope, had)) return response;
        stepUps += 1;
        await exclusive(key, () => signIn(server, challenge, current));
      } else {
        return response;
      }
      await response.body?.cancel().catch(() => {});
      record = await load(key);
      response = await send(input, init, record);
    }
  }

  return {
    fetch: authorizedFetch,
    async signIn(target) {
      const server = serverKey(target);
      const record = await load(server.href);
      if (
        record?.tokens !== undefined &&
        (record.tokens.expiresAt ?? Infinity) - EXPIRY_MARGIN_MS > Date.now()
      )
        return;
      if (record !== undefined && (await refresh(server, record))) return;
      await exclusive(server.href, () => probeAndSignIn(server, record));
    },
    async signOut(target) {
      const server = serverKey(target).href;
      handles.delete(server);
      await store.delete(server);
    },
  };

  /** Signs in without a challenge in hand: asks the server for one first, as a request would. */
  async function probeAndSignIn(server: URL, record: StoredAuth | undefined): Promise<void> {
    const response = await baseFetch(server, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    }).catch((error: unknown) => {
      throw new SignInError(`${server.href} could not be reached: ${String(error)}`, { cause: error });
    });
    await response.body?.cancel().catch(() => {});
    await signIn(server, response.status === 401 ? challengeOf(response) : { challenges: [] }, record);
  }
}

/** What a refusal asks for: the SDK reads the MCP parameters, every scheme is kept for DPoP. */
function challengeOf(response: Response): Challenge {
  return {
    ...extractWWWAuthenticateParams(response),
    challenges: parseChallenges(response.headers.get('www-authenticate')),
  };
}

/** The server a request goes to: its URL without fragment (query kept, it may name a tenant). */
function serverKey(input: string | URL): URL {
  const url = new URL(input);
  url.hash = '';
  return url;
}

function defaultWarning(message: string): void {
  const host = (globalThis as { process?: { emitWarning?(text: string, options: object): void } }).process;
  if (host?.emitWarning) host.emitWarning(message, { code: 'PARLEY_ISSUER_PINNED' });
  else console.warn(message);
}
