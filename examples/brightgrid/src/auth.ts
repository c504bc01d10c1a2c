import type { ListenOptions } from '@parley/server';
import {
  introspectionVerifier,
  jwtVerifier,
  type ProtectedResource,
  protectedResource,
} from '@parley/server/oauth';
import type { Store } from './db.js';

/**
 * Verifies `Authorization: Bearer <token>` against the store's API tokens. The user becomes the
 * request's verified principal (`extra.sub`); a missing or unknown token makes the request anonymous.
 */
export function bearerAuth(store: Store): NonNullable<ListenOptions['authenticate']> {
  return (request) => {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(request.headers.get('authorization') ?? '');
    const user = match ? store.userForToken(match[1]!) : undefined;
    if (!match || !user) return undefined;
    return { token: match[1]!, clientId: 'brightgrid-api-token', scopes: [], extra: { sub: user } };
  };
}

/**
 * The endpoint's check when Brightgrid runs without an authorization server: `bearerAuth`, except
 * that a Bearer token the store does not know (revoked when the replica that printed it stopped,
 * or never issued) is refused with 401 `invalid_token` (RFC 6750), so the client knows to get a
 * new one instead of being served as nobody. No Authorization header stays anonymous.
 */
export function apiTokenAuth(store: Store): NonNullable<ListenOptions['authenticate']> {
  const known = bearerAuth(store);
  return async (request) => {
    const auth = await known(request);
    if (auth !== undefined || !/^Bearer\s/i.test(request.headers.get('authorization') ?? '')) return auth;
    return new Response(
      JSON.stringify({
        error: 'invalid_token',
        error_description:
          'Brightgrid does not know this token (it was revoked, or never issued): use the one `npm start` printed last.',
      }),
      {
        status: 401,
        headers: {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer error="invalid_token", error_description="unknown or revoked token"',
        },
      },
    );
  };
}

/** The scope an access token needs to use Brightgrid. */
export const STORE_SCOPE = 'store';

/**
 * Brightgrid as an OAuth protected resource of its authorization server: access tokens for this
 * endpoint (`resource`), JWTs verified against the issuer's keys or opaque ones introspected,
 * their subject the user. Clients are asked for DPoP-bound tokens (RFC 9449), and a bound token is
 * accepted only with a fresh proof by its key; bearer tokens are still accepted. The
 * store's API tokens (what scripts and the fleet use) are still accepted; a request with neither is
 * refused with a challenge that sends clients to sign in.
 */
export function oauthAuth(
  store: Store,
  options: {
    issuer: string;
    resource: string;
    /** Opaque access tokens: ask the issuer about each one (RFC 7662) with these credentials. */
    introspection?: { clientId: string; clientSecret: string };
  },
): ProtectedResource {
  const protection = protectedResource({
    authorizationServers: [options.issuer],
    verify:
      options.introspection === undefined
        ? jwtVerifier({ issuer: options.issuer })
        : introspectionVerifier({ issuer: options.issuer, ...options.introspection }),
    resource: options.resource,
    scopesSupported: [STORE_SCOPE],
    requiredScopes: { all: [STORE_SCOPE] },
    resourceName: 'Brightgrid store',
    dpop: {},
  });
  const apiTokens = bearerAuth(store);
  return {
    ...protection,
    authenticate: async (request) => (await apiTokens(request)) ?? protection.authenticate(request),
  };
}
