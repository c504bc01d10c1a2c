import type { AuthInfo } from '@modelcontextprotocol/server';
import { discoverJwksUri } from './issuer-metadata.js';
import { importJose } from './jose.js';
import { confirmationOf, InvalidTokenError, scopesOf, type TokenVerifier } from './token-verifier.js';

/** Which issuer `jwtVerifier` trusts, where its keys are, and how strictly tokens are checked. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; tokens from any other issuer are refused. */
  readonly issuer: string;
  /** Where its signing keys are. Default: the `jwks_uri` of its metadata. */
  readonly jwksUri?: string;
  /** Accepted signing algorithms. Default: whatever the keys allow (never `none`). */
  readonly algorithms?: readonly string[];
  /** Clock skew tolerated on `exp` and `nbf`, in seconds. Default 5. */
  readonly clockToleranceSeconds?: number;
}

/**
 * Verifies JWT access tokens (RFC 9068) with the issuer's published keys: the signature, `iss`,
 * `exp`/`nbf`, and that `aud` names this server's resource identifier. A token bound to a key
 * (RFC 9449 `cnf.jkt`) is reported in `extra.cnf`, so the server asks for its DPoP proof. Needs
 * the optional peer dependency `jose`.
 *
 * @example
 * import { jwtVerifier, protectedResource } from '@parley/server/oauth';
 * const protection = protectedResource({
 *   authorizationServers: ['https://auth.example.com'],
 *   verify: jwtVerifier({ issuer: 'https://auth.example.com' }),
 * });
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  let keys: Promise<(header: unknown, token: unknown) => Promise<unknown>> | undefined;
  const loadKeys = async () => {
    const jose = await importJose('jwtVerifier()');
    const uri = options.jwksUri ?? (await discoverJwksUri(options.issuer));
    return jose.createRemoteJWKSet(new URL(uri)) as (header: unknown, token: unknown) => Promise<unknown>;
  };
  return async (token, context): Promise<AuthInfo> => {
    const jose = await importJose('jwtVerifier()');
    keys ??= loadKeys().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    let payload: Record<string, unknown>;
    try {
      const verified = await jose.jwtVerify(token, (await keys) as Parameters<typeof jose.jwtVerify>[1], {
        issuer: options.issuer,
        audience: context.resource,
        clockTolerance: options.clockToleranceSeconds ?? 5,
        ...(options.algorithms !== undefined && { algorithms: [...options.algorithms] }),
      });
      payload = verified.payload as Record<string, unknown>;
    } catch (error) {
      throw new InvalidTokenError(describeJwtFailure(error, context.resource, options.issuer));
    }
    const subject = typeof payload.sub === 'string' ? payload.sub : undefined;
    const clientId = typeof payload.client_id === 'string' ? payload.client_id : (subject ?? '');
    return {
      token,
      clientId,
      scopes: scopesOf(payload),
      ...(typeof payload.exp === 'number' && { expiresAt: payload.exp }),
      resource: new URL(context.resource),
      extra: {
        ...(subject !== undefined && { sub: subject }),
        iss: options.issuer,
        ...confirmationOf(payload),
      },
    };
  };
}

/** A refusal reason that names the check that failed, never the token. */
function describeJwtFailure(error: unknown, resource: string, issuer: string): string {
  const code = (error as { code?: string }).code;
  const claim = (error as { claim?: string }).claim;
  if (code === 'ERR_JWT_EXPIRED') return 'The access token has expired; sign in again';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'aud')
    return `The access token is not for this server (its audience is not ${resource})`;
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'iss')
    return `The access token was not issued by ${issuer}`;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' || code === 'ERR_JWKS_NO_MATCHING_KEY')
    return 'The access token signature does not verify';
  return 'The access token is not a valid JWT from the authorization server';
}
