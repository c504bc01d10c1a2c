import type { FetchLike } from '@modelcontextprotocol/client';
import * as oauth from 'oauth4webapi';
import {
  authenticateClient,
  type ClientCredentialsOptions,
  checkClientCredentials,
} from './client-credentials.js';
import { discoverAuthorizationServer } from './discovery.js';
import { type Grant, type GrantRequest, JWT_BEARER, requireGrantType, tokenRequest } from './grant.js';
import { requestOptions } from './request-options.js';
import { SignInError } from './sign-in-error.js';
import { describeTokenError } from './token-request.js';
import { type AssertionSource, readAssertion } from './workload-identity.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/** The company's identity provider the person signed in to the host with (single sign-on). */
export interface IdentityProvider {
  /** Its issuer identifier; its token endpoint is read from its metadata unless given. */
  readonly issuer: string;
  readonly tokenEndpoint?: string;
  /** The host's client at the identity provider. */
  readonly clientId: string;
  /** Its secret, when the identity provider authenticates the host's client. */
  readonly clientSecret?: string;
}

/** What `enterpriseManaged()` needs: the identity provider, the person's ID token, and the host's client. */
export interface EnterpriseManagedOptions {
  readonly idp: IdentityProvider;
  /** The ID token single sign-on gave the host: the string, or a function giving the current one. */
  readonly idToken: AssertionSource;
  /**
   * The host's client at the MCP server's authorization server, registered beforehand, with its
   * secret or private key (`issuer` there pins that authorization server).
   */
  readonly client: ClientCredentialsOptions;
}

/**
 * Enterprise-managed authorization (the MCP extension; the Identity Assertion JWT Authorization
 * Grant): the person signed in to the host once, at the company's identity provider. For each MCP
 * server the host trades that ID token at the identity provider for an identity assertion grant
 * (ID-JAG) for the server's authorization server (RFC 8693 token exchange), then trades the
 * ID-JAG there for an access token (RFC 7523 JWT bearer grant). Nobody is asked again; the
 * company's policy at the identity provider decides which servers and scopes a person gets.
 *
 * @example
 * import { enterpriseManaged, oauthSession } from '@parley/client/oauth';
 * const session = oauthSession({
 *   grant: enterpriseManaged({
 *     idp: { issuer: 'https://acme.okta.example', clientId: 'chat-host', clientSecret: process.env.IDP_SECRET! },
 *     idToken: () => sso.currentIdToken(),
 *     client: { clientId: 'chat-host', clientSecret: process.env.AS_SECRET!, issuer: 'https://auth.tools.example' },
 *   }),
 * });
 */
export function enterpriseManaged(options: EnterpriseManagedOptions): Grant {
  checkClientCredentials(options.client, 'enterpriseManaged() client');
  if (typeof options.idp?.issuer !== 'string' || typeof options.idp.clientId !== 'string') {
    throw new TypeError(
      "enterpriseManaged() needs the identity provider's issuer and the host's clientId there",
    );
  }
  return {
    kind: 'enterprise',
    clientId: options.client.clientId,
    issuer: options.client.issuer,
    async request(request: GrantRequest) {
      requireGrantType(request.as, JWT_BEARER, 'the JWT bearer grant (enterprise-managed authorization)');
      const idJag = await exchangeIdToken(options, request);
      const { client, auth } = await authenticateClient(request.as, options.client);
      const oauthClient: oauth.Client = { client_id: client.clientId };
      const parameters = new URLSearchParams({ assertion: idJag, resource: request.resource });
      if (request.scope !== undefined) parameters.set('scope', request.scope);
      const tokens = await tokenRequest(
        request,
        'identity assertion (ID-JAG) from the identity provider',
        (send) =>
          oauth.genericTokenEndpointRequest(request.as, oauthClient, auth, JWT_BEARER, parameters, send),
        oauthClient,
      );
      return { client, tokens };
    },
  };
}

/** Step one: the ID token for an ID-JAG whose audience is the server's authorization server. */
async function exchangeIdToken(options: EnterpriseManagedOptions, request: GrantRequest): Promise<string> {
  const { idp } = options;
  const subjectToken = await readAssertion(options.idToken, 'ID token from single sign-on');
  const idpServer = await identityProvider(idp, request.fetchFn);
  const client: oauth.Client = { client_id: idp.clientId };
  const auth = idp.clientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(idp.clientSecret);
  const parameters = new URLSearchParams({
    requested_token_type: ID_JAG,
    audience: request.as.issuer,
    resource: request.resource,
    subject_token: subjectToken,
    subject_token_type: ID_TOKEN,
  });
  if (request.scope !== undefined) parameters.set('scope', request.scope);
  let response: oauth.TokenEndpointResponse;
  try {
    response = await oauth.processGenericTokenEndpointResponse(
      idpServer,
      client,
      await oauth.genericTokenEndpointRequest(
        idpServer,
        client,
        auth,
        TOKEN_EXCHANGE,
        parameters,
        requestOptions(idpServer.issuer, request.fetchFn),
      ),
      // An ID-JAG is not an access token: its token_type is N_A (RFC 8693 §2.2.1).
      { recognizedTokenTypes: { n_a: () => {} } },
    );
  } catch (error) {
    throw new SignInError(
      `The identity provider ${idp.issuer} did not exchange the ID token for an identity assertion for ${request.as.issuer}: ${describeTokenError(error)}`,
      { cause: error },
    );
  }
  if (response.issued_token_type !== ID_JAG) {
    throw new SignInError(
      `The identity provider ${idp.issuer} answered the token exchange with ${String(response.issued_token_type ?? 'no issued_token_type')}, not an identity assertion (ID-JAG)`,
    );
  }
  return response.access_token;
}

async function identityProvider(
  idp: IdentityProvider,
  fetchFn: FetchLike,
): Promise<oauth.AuthorizationServer> {
  if (idp.tokenEndpoint !== undefined) return { issuer: idp.issuer, token_endpoint: idp.tokenEndpoint };
  return discoverAuthorizationServer(idp.issuer, fetchFn);
}
