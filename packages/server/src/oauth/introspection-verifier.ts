import type { AuthInfo } from '@modelcontextprotocol/server';
import { issuerMetadata } from './issuer-metadata.js';
import {
  audienceIncludes,
  confirmationOf,
  InvalidTokenError,
  scopesOf,
  type TokenVerifier,
} from './token-verifier.js';

/** Which authorization server `introspectionVerifier` asks about opaque tokens, and with which credentials. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer identifier; a token it says came from elsewhere is refused. */
  readonly issuer: string;
  /** Its introspection endpoint (RFC 7662). Default: `introspection_endpoint` from its metadata. */
  readonly endpoint?: string;
  /** This server's credentials at the authorization server (HTTP Basic). */
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Verifies opaque access tokens by asking the authorization server (RFC 7662 token
 * introspection): the token must be active, unexpired, from the issuer, and for this server.
 *
 * @example
 * const verify = introspectionVerifier({
 *   issuer: 'https://id.example.com',
 *   clientId: 'mcp-server',
 *   clientSecret: process.env.SECRET!,
 * });
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  let endpoint: Promise<string> | undefined;
  const credentials = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  return async (token, context): Promise<AuthInfo> => {
    endpoint ??= options.endpoint
      ? Promise.resolve(options.endpoint)
      : issuerMetadata(options.issuer).then((metadata) => {
          if (typeof metadata.introspection_endpoint !== 'string') {
            throw new Error(`The authorization server ${options.issuer} publishes no introspection_endpoint`);
          }
          return metadata.introspection_endpoint;
        });
    const response = await fetch(await endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) throw new Error(`Token introspection answered ${response.status}`);
    const claims = (await response.json()) as Record<string, unknown>;
    if (claims.active !== true)
      throw new InvalidTokenError('The access token is not active (expired or revoked)');
    if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now()) {
      throw new InvalidTokenError('The access token has expired; sign in again');
    }
    if (claims.iss !== undefined && claims.iss !== options.issuer) {
      throw new InvalidTokenError(`The access token was not issued by ${options.issuer}`);
    }
    if (!audienceIncludes(claims.aud, context.resource)) {
      throw new InvalidTokenError(
        `The access token is not for this server (its audience is not ${context.resource})`,
      );
    }
    const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
    return {
      token,
      clientId: typeof claims.client_id === 'string' ? claims.client_id : '',
      scopes: scopesOf(claims),
      ...(typeof claims.exp === 'number' && { expiresAt: claims.exp }),
      resource: new URL(context.resource),
      extra: {
        ...(subject !== undefined && { sub: subject }),
        iss: options.issuer,
        ...confirmationOf(claims),
      },
    };
  };
}
