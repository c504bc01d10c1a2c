import type { AuthInfo } from '@modelcontextprotocol/server';

/** Why a token was refused; the message is safe to send back (it never echoes the token). */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** What a verifier needs to know about the request besides the token. */
export interface VerifyContext {
  /** This server's resource identifier: the token must be issued for it (RFC 8707 audience). */
  readonly resource: string;
}

/**
 * Checks an access token and says who it belongs to. Throws {@link InvalidTokenError} for a token
 * that is expired, tampered with, from another issuer or for another audience. The returned auth
 * info carries the token's subject in `extra.sub` (that is `ctx.user`) and its scopes, and, for a
 * token bound to a key, the key's thumbprint in `extra.cnf.jkt` (RFC 9449): the server then
 * accepts the token only with a DPoP proof signed by that key.
 */
export type TokenVerifier = (token: string, context: VerifyContext) => Promise<AuthInfo>;

/** Space-separated scopes from a token's `scope` claim (or `scp` array). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(claims.scp))
    return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** Whether a token's audience claim (a string or a list) names `resource`. */
export function audienceIncludes(audience: unknown, resource: string): boolean {
  if (typeof audience === 'string') return audience === resource;
  return Array.isArray(audience) && audience.includes(resource);
}

/** `{ cnf: { jkt } }` when the claims bind the token to a DPoP key (RFC 9449 §6), else nothing. */
export function confirmationOf(claims: Record<string, unknown>): { cnf?: { jkt: string } } {
  const cnf = claims.cnf;
  if (typeof cnf !== 'object' || cnf === null) return {};
  const jkt = (cnf as { jkt?: unknown }).jkt;
  return typeof jkt === 'string' ? { cnf: { jkt } } : {};
}

/** The DPoP key thumbprint a verified token is bound to, if it is. */
export function boundKeyOf(extra: Record<string, unknown> | undefined): string | undefined {
  const cnf = extra?.cnf;
  if (typeof cnf !== 'object' || cnf === null) return undefined;
  const jkt = (cnf as { jkt?: unknown }).jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}
