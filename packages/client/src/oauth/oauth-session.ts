import { extractWWWAuthenticateParams, type FetchLike } from '@modelcontextprotocol/client';
import type * as oauth from 'oauth4webapi';
import { type Authorize, authorizationCodeGrant, refreshGrant } from './authorization-code.js';
import { discoverAuthorizationServer, discoverResource } from './discovery.js';
import { obtainClient, type PreRegisteredClient } from './registration.js';
import { addsScope, chooseScope } from './scopes.js';
import { SignInError } from './sign-in-error.js';
import { memoryStore, type OAuthStore, type StoredAuth } from './store.js';

/**
 * How a host signs in to protected MCP servers. Only `redirectUri` and `authorize` are required.
 *
 * @example
 * const session = oauthSession({
 *   redirectUri: 'http://127.0.0.1:8976/callback',
 *   authorize: async (url) => openBrowserAndWaitForRedirect(url),
 * });
 * const client = await connect('https://mcp.example.com/mcp', { ui, fetch: session.fetch });
 */
export interface OAuthSessionOptions {
  /**
   * Where the authorization server sends the browser back to (registered with the server). A
   * function is called when a sign-in starts: a native app can start its loopback listener on a
   * free port then (RFC 8252 §7.3: authorization servers accept any port on a loopback redirect).
   */
  redirectUri: string | (() => string | Promise<string>);
  /** Shows the authorization page to the person; resolves with the URL the browser came back to. */
  authorize: Authorize;
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
}

/** A host's sign-ins: a `fetch` for the MCP transport that signs in when a server asks. */
export interface OAuthSession {
  /** Pass as `connect(url, { fetch })`: adds the token, signs in on 401, steps up on 403. */
  readonly fetch: FetchLike;
  /** Signs in to the server now (before connecting), unless a stored token is still valid. */
  signIn(server: string | URL): Promise<void>;
  /** Forgets the server's tokens and client registration. */
  signOut(server: string | URL): Promise<void>;
}

interface Challenge {
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
  readonly error?: string;
}

/** Refresh a token this long before it expires, so it does not expire in flight. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * A sign-in session for MCP servers protected by OAuth 2.1, as the MCP authorization
 * specification describes: discovery (RFC 9728, RFC 8414, OpenID Connect), registration (a
 * client registered beforehand, a Client ID Metadata Document, or RFC 7591 with
 * `application_type`), the authorization code grant with PKCE, `resource` (RFC 8707) and `iss`
 * (RFC 9207) checks, scope step-up with a limit, refresh tokens, and moving to a new
 * authorization server. Tokens only ever go to the server they were issued for.
 */
export function oauthSession(options: OAuthSessionOptions): OAuthSession {
  const baseFetch: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const store = options.store ?? memoryStore();
  const maxStepUps = options.maxStepUps ?? 2;
  const running = new Map<string, Promise<void>>();

  /** One sign-in per server at a time; a request arriving meanwhile waits for it. */
  function exclusive(server: string, work: () => Promise<void>): Promise<void> {
    const current = running.get(server);
    if (current !== undefined) return current;
    const next = work().finally(() => running.delete(server));
    running.set(server, next);
    return next;
  }

  async function signIn(server: URL, challenge: Challenge, previous: StoredAuth | undefined): Promise<void> {
    const redirectUri =
      typeof options.redirectUri === 'function' ? await options.redirectUri() : options.redirectUri;
    const resource = await discoverResource(server, challenge.resourceMetadataUrl, baseFetch);
    const as = await discoverAuthorizationServer(resource.issuer, baseFetch);
    // A client and its tokens belong to one authorization server; after a move neither is reused.
    const sameServer = previous !== undefined && previous.issuer === as.issuer;
    const client = sameServer
      ? previous.client
      : await obtainClient(
          as,
          {
            redirectUri,
            clientName: options.clientName ?? 'Parley',
            applicationType: options.applicationType ?? 'native',
            ...(options.clientMetadataUrl !== undefined && { clientMetadataUrl: options.clientMetadataUrl }),
            ...(options.clients !== undefined && { preRegistered: options.clients }),
          },
          baseFetch,
        );
    const scope = chooseScope({
      challenged: challenge.scope,
      previous: sameServer ? previous.tokens?.requestedScope : undefined,
      resourceScopes: resource.scopesSupported,
      serverScopes: as.scopes_supported,
      offlineAccess: options.offlineAccess ?? true,
    });
    const tokens = await authorizationCodeGrant({
      as,
      client,
      redirectUri,
      resource: resource.resource,
      scope,
      authorize: options.authorize,
      fetchFn: baseFetch,
    });
    await store.save({ server: server.href, resource: resource.resource, issuer: as.issuer, client, tokens });
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
    const tokens = await refreshGrant(as, record.client, record.tokens, record.resource, baseFetch);
    if (tokens === undefined) return false;
    await store.save({ ...record, tokens });
    return true;
  }

  async function send(input: string | URL, init: RequestInit | undefined, record: StoredAuth | undefined) {
    const headers = new Headers(init?.headers);
    if (record?.tokens !== undefined) headers.set('authorization', `Bearer ${record.tokens.accessToken}`);
    return baseFetch(input, { ...init, headers });
  }

  async function authorizedFetch(input: string | URL, init?: RequestInit): Promise<Response> {
    const server = serverKey(input);
    const key = server.href;
    let record = await store.load(key);
    if (record?.tokens?.expiresAt !== undefined && record.tokens.expiresAt - EXPIRY_MARGIN_MS < Date.now()) {
      await exclusive(key, async () => {
        const current = await store.load(key);
        if (current !== undefined && !(await refresh(server, current))) {
          const { tokens: _expired, ...rest } = current;
          await store.save(rest);
        }
      });
      record = await store.load(key);
    }
    let response = await send(input, init, record);
    let signedIn = false;
    let stepUps = 0;
    for (;;) {
      const challenge = extractWWWAuthenticateParams(response);
      if (response.status === 401 && !signedIn) {
        signedIn = true;
        const stale = record;
        await exclusive(key, async () => {
          const current = await store.load(key);
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
        const current = await store.load(key);
        const had = current?.tokens?.requestedScope;
        // Asking again for the scopes the token already has would loop: the server will not budge.
        if (current === undefined || !addsScope(challenge.scope, had)) return response;
        stepUps += 1;
        await exclusive(key, () => signIn(server, challenge, current));
      } else {
        return response;
      }
      await response.body?.cancel().catch(() => {});
      record = await store.load(key);
      response = await send(input, init, record);
    }
  }

  return {
    fetch: authorizedFetch,
    async signIn(target) {
      const server = serverKey(target);
      const record = await store.load(server.href);
      if (
        record?.tokens !== undefined &&
        (record.tokens.expiresAt ?? Infinity) - EXPIRY_MARGIN_MS > Date.now()
      )
        return;
      if (record !== undefined && (await refresh(server, record))) return;
      await exclusive(server.href, () => probeAndSignIn(server, record));
    },
    async signOut(target) {
      await store.delete(serverKey(target).href);
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
    await signIn(server, response.status === 401 ? extractWWWAuthenticateParams(response) : {}, record);
  }
}

/** The server a request goes to: its URL without fragment (query kept, it may name a tenant). */
function serverKey(input: string | URL): URL {
  const url = new URL(input);
  url.hash = '';
  return url;
}
