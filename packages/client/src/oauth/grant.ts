import type { FetchLike } from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';
import { requestOptions } from './request-options.js';
import { SignInError } from './sign-in-error.js';
import type { StoredClient, StoredTokens } from './store.js';
import { describeTokenError, withDpopNonceRetry } from './token-request.js';
import { tokensFrom } from './token-response.js';

/** What a grant is asked for at one sign-in. */
export interface GrantRequest {
  /** The authorization server the protected server names (its metadata). */
  readonly as: oauth.AuthorizationServer;
  /** The server's resource identifier (RFC 8707): the token must be for it. */
  readonly resource: string;
  readonly scope: string | undefined;
  /** Set when the token is to be bound to a key (RFC 9449). */
  readonly dpop: oauth.DPoPHandle | undefined;
  readonly fetchFn: FetchLike;
}

/** The client a grant signed in as, and the tokens it got. */
export interface GrantResult {
  readonly client: StoredClient;
  readonly tokens: StoredTokens;
}

/**
 * A way to get tokens with no person at a browser, for `oauthSession({ grant })`: made by
 * `clientCredentials()`, `workloadIdentity()` or `enterpriseManaged()`. A session with a grant
 * signs in with it whenever a server asks, and again when the token expires.
 */
export interface Grant {
  /** `client_credentials`, `jwt_bearer` or `enterprise`, kept with the tokens it got. */
  readonly kind: string;
  /** The client it signs in as, when it has one (kept with the tokens; secrets and keys are not). */
  readonly clientId: string | undefined;
  /** When set, the only authorization server this grant's credentials are sent to. */
  readonly issuer: string | undefined;
  request(request: GrantRequest): Promise<GrantResult>;
}

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Refuses an authorization server that lists its grant types without this one. */
export function requireGrantType(as: oauth.AuthorizationServer, grantType: string, what: string): void {
  const supported = as.grant_types_supported;
  if (supported !== undefined && !supported.includes(grantType)) {
    throw new SignInError(
      `The authorization server ${as.issuer} does not offer ${what} (grant_types_supported has no ${grantType}); this server cannot be used with it`,
    );
  }
}

/**
 * One token endpoint request: sent (with a DPoP proof when the request has a handle, and once
 * more if the server asks for a nonce) and its answer checked. `token_type` must be Bearer or
 * DPoP; anything wrong is a {@link SignInError} naming the server and the reason.
 */
export async function tokenRequest(
  request: GrantRequest,
  what: string,
  send: (options: {
    readonly [oauth.customFetch]: typeof fetch;
    readonly [oauth.allowInsecureRequests]?: boolean;
    readonly DPoP?: oauth.DPoPHandle;
  }) => Promise<Response>,
  client: oauth.Client,
): Promise<StoredTokens> {
  const options = {
    ...requestOptions(request.as.issuer, request.fetchFn),
    ...(request.dpop !== undefined && { DPoP: request.dpop }),
  };
  try {
    const response = await withDpopNonceRetry(request.dpop, async () =>
      oauth.processGenericTokenEndpointResponse(request.as, client, await send(options)),
    );
    return tokensFrom(response, request.scope);
  } catch (error) {
    throw new SignInError(
      `The authorization server ${request.as.issuer} refused the ${what}: ${describeTokenError(error)}`,
      { cause: error },
    );
  }
}
