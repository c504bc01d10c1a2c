import type { FetchLike } from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';
import { clientAuthentication } from './client-auth.js';
import { messageOf } from './discovery.js';
import { requestOptions } from './request-options.js';
import { SignInError } from './sign-in-error.js';
import type { StoredClient, StoredTokens } from './store.js';
import { describeTokenError, withDpopNonceRetry } from './token-request.js';
import { tokensFrom } from './token-response.js';

/** Opens the authorization URL for the person; resolves with the URL the browser was sent back to. */
export type Authorize = (authorizationUrl: URL) => Promise<URL>;

export interface AuthorizationCodeRequest {
  readonly as: oauth.AuthorizationServer;
  readonly client: StoredClient;
  readonly redirectUri: string;
  readonly resource: string;
  readonly scope: string | undefined;
  readonly authorize: Authorize;
  readonly fetchFn: FetchLike;
  /** Set when the tokens are to be bound to a key (RFC 9449); the code is bound to it too. */
  readonly dpop?: oauth.DPoPHandle;
}

/**
 * The authorization code grant with PKCE (S256), the `resource` parameter (RFC 8707) on both
 * requests, and the checks on the response: `state`, and `iss` (RFC 9207) compared exactly with
 * the issuer, required when the server says it sends one. With DPoP, the code is bound to the key
 * (`dpop_jkt`) and the token request carries a proof (retried once with the server's nonce).
 */
export async function authorizationCodeGrant(request: AuthorizationCodeRequest): Promise<StoredTokens> {
  const { as, client, resource, scope } = request;
  if (as.authorization_endpoint === undefined || as.token_endpoint === undefined) {
    throw new SignInError(`The authorization server ${as.issuer} has no authorization or token endpoint`);
  }
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new SignInError(
      `The authorization server ${as.issuer} does not say it supports PKCE with S256 (code_challenge_methods_supported); refusing to sign in without it`,
    );
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', resource);
  if (scope !== undefined) url.searchParams.set('scope', scope);
  if (request.dpop !== undefined) url.searchParams.set('dpop_jkt', await request.dpop.calculateThumbprint());

  const callback = await request.authorize(url);
  const oauthClient: oauth.Client = { client_id: client.clientId };
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, oauthClient, callback, state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const said = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
      throw new SignInError(`The authorization server refused the sign-in (${said}); nothing was stored`, {
        cause: error,
      });
    }
    throw new SignInError(`The authorization response was refused: ${messageOf(error)}`, { cause: error });
  }
  const options = {
    ...requestOptions(as.issuer, request.fetchFn),
    additionalParameters: { resource },
    ...(request.dpop !== undefined && { DPoP: request.dpop }),
  };
  try {
    const tokens = await withDpopNonceRetry(request.dpop, async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        oauthClient,
        await oauth.authorizationCodeGrantRequest(
          as,
          oauthClient,
          clientAuthentication(client),
          parameters,
          request.redirectUri,
          verifier,
          options,
        ),
      ),
    );
    return tokensFrom(tokens, scope);
  } catch (error) {
    throw new SignInError(
      `The authorization server ${as.issuer} did not issue a token: ${describeTokenError(error)}`,
      { cause: error },
    );
  }
}

/**
 * Trades a refresh token for new tokens (with a proof by the same key when they are DPoP-bound);
 * `undefined` when the server refuses it.
 */
export async function refreshGrant(
  as: oauth.AuthorizationServer,
  client: StoredClient,
  tokens: StoredTokens,
  resource: string,
  fetchFn: FetchLike,
  dpop?: oauth.DPoPHandle,
): Promise<StoredTokens | undefined> {
  if (tokens.refreshToken === undefined) return undefined;
  const refreshToken = tokens.refreshToken;
  const oauthClient: oauth.Client = { client_id: client.clientId };
  const options = {
    ...requestOptions(as.issuer, fetchFn),
    additionalParameters: { resource },
    ...(dpop !== undefined && { DPoP: dpop }),
  };
  try {
    const refreshed = await withDpopNonceRetry(dpop, async () =>
      oauth.processRefreshTokenResponse(
        as,
        oauthClient,
        await oauth.refreshTokenGrantRequest(
          as,
          oauthClient,
          clientAuthentication(client),
          refreshToken,
          options,
        ),
      ),
    );
    const next = tokensFrom(refreshed, tokens.requestedScope);
    // A server may keep the refresh token the same and not send it again.
    return next.refreshToken === undefined ? { ...next, refreshToken: tokens.refreshToken } : next;
  } catch {
    return undefined;
  }
}
