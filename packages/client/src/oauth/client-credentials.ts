import * as oauth from 'oauth4webapi';
import { clientAuthentication } from './client-auth.js';
import { type Grant, type GrantRequest, requireGrantType, tokenRequest } from './grant.js';
import { type ClientPrivateKey, importClientKey } from './private-key.js';
import { SignInError } from './sign-in-error.js';
import type { StoredClient } from './store.js';

/** A client registered with the authorization server beforehand, and how it proves it is. */
export interface ClientCredentialsOptions {
  readonly clientId: string;
  /** Its secret; or else `privateKey`. */
  readonly clientSecret?: string;
  /**
   * Its private key, for a JWT assertion (RFC 7523 `private_key_jwt`, what the MCP extension
   * recommends): PEM text, a private JWK, or a WebCrypto key.
   */
  readonly privateKey?: ClientPrivateKey;
  /** The key's JWS algorithm. Default: the JWK's `alg`, else ES256 for P-256, RS256 for RSA. */
  readonly algorithm?: string;
  /** How a secret is sent. Default: `client_secret_basic`, or `client_secret_post` if only that is offered. */
  readonly secretMethod?: 'client_secret_basic' | 'client_secret_post';
  /**
   * The authorization server these credentials are for. Recommended: a server that names another
   * one is refused before the secret or an assertion leaves the host. Without it, the first one a
   * server names is pinned, with a warning (see `oauthSession`'s `onWarning`).
   */
  readonly issuer?: string;
}

/** Checks that exactly one credential is given and that nothing is empty. */
export function checkClientCredentials(options: ClientCredentialsOptions, what: string): void {
  if (typeof options.clientId !== 'string' || options.clientId === '') {
    throw new TypeError(`${what} needs the clientId the authorization server registered`);
  }
  const secret = options.clientSecret !== undefined;
  const key = options.privateKey !== undefined;
  if (secret === key) {
    throw new TypeError(
      `${what} needs exactly one of clientSecret and privateKey (got ${secret ? 'both' : 'neither'})`,
    );
  }
  if (secret && options.clientSecret === '') throw new TypeError(`${what}: clientSecret is empty`);
}

/**
 * The client authentication these credentials call for at this authorization server, checked
 * against what it says it accepts.
 */
export async function authenticateClient(
  as: oauth.AuthorizationServer,
  options: ClientCredentialsOptions,
): Promise<{ readonly client: StoredClient; readonly auth: oauth.ClientAuth }> {
  const accepted = as.token_endpoint_auth_methods_supported;
  if (options.privateKey !== undefined) {
    if (accepted !== undefined && !accepted.includes('private_key_jwt')) {
      throw new SignInError(
        `The authorization server ${as.issuer} does not accept private_key_jwt client authentication (it accepts ${accepted.join(', ')}); use a client secret`,
      );
    }
    const { key, alg } = await importClientKey(options.privateKey, options.algorithm);
    const algs = as.token_endpoint_auth_signing_alg_values_supported;
    if (algs !== undefined && !algs.includes(alg)) {
      throw new SignInError(
        `The authorization server ${as.issuer} does not accept client assertions signed with ${alg} (it accepts ${algs.join(', ')}); use a key for one of those`,
      );
    }
    const client: StoredClient = { clientId: options.clientId, tokenEndpointAuthMethod: 'private_key_jwt' };
    return { client, auth: clientAuthentication(client, key) };
  }
  const method =
    options.secretMethod ??
    (accepted === undefined || accepted.includes('client_secret_basic')
      ? 'client_secret_basic'
      : 'client_secret_post');
  if (accepted !== undefined && !accepted.includes(method)) {
    throw new SignInError(
      `The authorization server ${as.issuer} does not accept ${method} client authentication (it accepts ${accepted.join(', ')})`,
    );
  }
  const client: StoredClient = {
    clientId: options.clientId,
    clientSecret: options.clientSecret ?? '',
    tokenEndpointAuthMethod: method,
  };
  // The secret authenticates this request; the stored client does not keep it.
  return {
    client: { clientId: client.clientId, tokenEndpointAuthMethod: method },
    auth: clientAuthentication(client),
  };
}

/**
 * Signs in as the client itself (a service, an agent, a scheduled job): the OAuth client
 * credentials grant (the MCP client credentials extension), with a client secret or, better, a
 * JWT signed with the client's private key (RFC 7523). The client is registered with the
 * authorization server beforehand; nobody is asked anything.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { clientCredentials, oauthSession } from '@parley/client/oauth';
 *
 * const session = oauthSession({
 *   grant: clientCredentials({
 *     clientId: 'nightly-report',
 *     privateKey: await readFile('/run/secrets/report-key.pem', 'utf8'),
 *     issuer: 'https://auth.example.com',
 *   }),
 * });
 */
export function clientCredentials(options: ClientCredentialsOptions): Grant {
  checkClientCredentials(options, 'clientCredentials()');
  return {
    kind: 'client_credentials',
    clientId: options.clientId,
    issuer: options.issuer,
    async request(request: GrantRequest) {
      requireGrantType(request.as, 'client_credentials', 'the client credentials grant');
      const { client, auth } = await authenticateClient(request.as, options);
      const oauthClient: oauth.Client = { client_id: client.clientId };
      const parameters = new URLSearchParams({ resource: request.resource });
      if (request.scope !== undefined) parameters.set('scope', request.scope);
      const tokens = await tokenRequest(
        request,
        'client credentials grant',
        (send) => oauth.clientCredentialsGrantRequest(request.as, oauthClient, auth, parameters, send),
        oauthClient,
      );
      return { client, tokens };
    },
  };
}
