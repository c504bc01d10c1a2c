/**
 * What a refusal says, in the `WWW-Authenticate` header (RFC 6750 §3, RFC 9728 §5.1): a Bearer
 * challenge, and a DPoP one (RFC 9449 §7.1) when the server accepts DPoP-bound tokens.
 */
export interface Challenge {
  readonly status: 401 | 403;
  readonly resourceMetadata: string;
  readonly error?:
    | 'invalid_request'
    | 'invalid_token'
    | 'insufficient_scope'
    | 'invalid_dpop_proof'
    | 'use_dpop_nonce';
  readonly description?: string;
  readonly scope?: readonly string[];
  /** The DPoP challenge: the proof algorithms accepted, and whether bearer tokens are not. */
  readonly dpop?: { readonly algorithms: readonly string[]; readonly required: boolean };
  /** Which challenge carries the error: the scheme the client used. Default `bearer`. */
  readonly scheme?: 'bearer' | 'dpop';
}

/** A refusal: the challenge header, and the same error as a JSON body for people reading logs. */
export function challengeResponse(challenge: Challenge): Response {
  const common: [string, string][] = [['resource_metadata', challenge.resourceMetadata]];
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    common.push(['scope', challenge.scope.join(' ')]);
  const error: [string, string][] = [];
  if (challenge.error !== undefined) error.push(['error', challenge.error]);
  if (challenge.description !== undefined) error.push(['error_description', challenge.description]);
  const { dpop } = challenge;
  const errorOnDpop = dpop !== undefined && (challenge.scheme === 'dpop' || dpop.required);
  const challenges: string[] = [];
  if (dpop?.required !== true) challenges.push(scheme('Bearer', [...common, ...(errorOnDpop ? [] : error)]));
  if (dpop !== undefined) {
    const algs: [string, string] = ['algs', dpop.algorithms.join(' ')];
    challenges.push(scheme('DPoP', [...common, ...(errorOnDpop ? error : []), algs]));
  }
  const body = {
    error: challenge.error ?? 'unauthorized',
    error_description: challenge.description ?? 'Sign in to use this server: send an OAuth access token',
  };
  return new Response(JSON.stringify(body), {
    status: challenge.status,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': challenges.join(', '),
      'cache-control': 'no-store',
    },
  });
}

function scheme(name: string, parameters: readonly [string, string][]): string {
  return `${name} ${parameters.map(([key, value]) => `${key}="${quoted(value)}"`).join(', ')}`;
}

/** A quoted-string value: no control characters, `"` and `\` escaped. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/["\\]/g, (char) => `\\${char}`);
}
