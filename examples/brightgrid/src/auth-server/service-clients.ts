import type { JWK } from 'jose';
import type { AccessToken, ClientCredentials, ClientMetadata, JWTStructured } from 'oidc-provider';

/**
 * A service (an agent, a script) that signs in as itself with the client credentials grant, on
 * behalf of one store user: its tokens' subject is that user, so tools act for them.
 */
export interface ServiceClient {
  readonly clientId: string;
  /** The store user the service acts for. */
  readonly actsFor: string;
  /** Its secret (`client_secret_basic`); or else `jwks`. */
  readonly clientSecret?: string;
  /** The public keys of its private-key JWTs (`private_key_jwt`, RFC 7523). */
  readonly jwks?: { readonly keys: readonly JWK[] };
}

/** Algorithms a service's client assertion may be signed with. */
const ASSERTION_ALGS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'];

/** How Brightgrid ID registers a service: the client credentials grant only, no redirect. */
export function serviceClientMetadata(service: ServiceClient): ClientMetadata {
  if ((service.clientSecret === undefined) === (service.jwks === undefined)) {
    throw new TypeError(`The service client ${service.clientId} needs exactly one of clientSecret and jwks`);
  }
  return {
    client_id: service.clientId,
    redirect_uris: [],
    response_types: [],
    grant_types: ['client_credentials'],
    ...(service.clientSecret !== undefined
      ? { client_secret: service.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
      : {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: service.jwks!.keys.map((key) => ({ ...key })) },
        }),
  } as ClientMetadata;
}

export { ASSERTION_ALGS };

/**
 * Makes a service's JWT access token name the user it acts for as its subject (RFC 9068 leaves
 * the subject of a client credentials token to the authorization server); `client_id` stays the
 * service's.
 */
export function actingSubject(
  services: readonly ServiceClient[],
): (ctx: unknown, token: AccessToken | ClientCredentials, jwt: JWTStructured) => JWTStructured {
  const users = new Map(services.map((service) => [service.clientId, service.actsFor]));
  return (_ctx, token, jwt) => {
    const user =
      token.kind === 'ClientCredentials' && token.clientId !== undefined
        ? users.get(token.clientId)
        : undefined;
    if (user !== undefined) jwt.payload.sub = user;
    return jwt;
  };
}
