import { createHash } from 'node:crypto';
import { importJose } from './jose.js';

/** How a server accepts DPoP-bound tokens (RFC 9449). */
export interface DpopOptions {
  /** Proof signing algorithms accepted. Default ES256, ES384, ES512, PS256, RS256, EdDSA. */
  readonly algorithms?: readonly string[];
  /** Accept only DPoP-bound tokens (bearer tokens are refused). Default false. */
  readonly required?: boolean;
  /** How far a proof's `iat` may be from now, in seconds. Default 300 (the MCP DPoP profile). */
  readonly maxAgeSeconds?: number;
}

export const DEFAULT_DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'RS256', 'EdDSA'];

/** Why a proof was refused; the message is safe to send back (it never echoes the proof). */
export class DpopProofError extends Error {
  override readonly name = 'DpopProofError';
}

/** What a proof must match: the request it came with, and the token it accompanies. */
export interface ProofRequest {
  readonly method: string;
  /** The URLs the request may have been sent to (the endpoint as seen here, its public URL). */
  readonly urls: readonly string[];
  readonly accessToken: string;
  /** The thumbprint of the key the token is bound to (`cnf.jkt`). */
  readonly jkt: string;
}

const MAX_PROOF = 8192;
const MAX_JTI = 256;
/** Proof ids remembered, at most; the oldest are forgotten first (they expire first anyway). */
const MAX_REMEMBERED = 100_000;

/**
 * A DPoP proof checker (RFC 9449 §4.3): one well-formed proof JWT of type `dpop+jwt`, signed
 * with an accepted asymmetric algorithm by the public key in its header, for this request's method
 * and URL (without query or fragment), issued within the allowed window, for this access token
 * (`ath`), by the key the token is bound to (`cnf.jkt`), and never seen before (`jti`, kept in
 * memory for the window: a fleet of servers shares no memory, so each checks its own).
 */
export function dpopProofChecker(
  options: DpopOptions = {},
): (proof: string | null, request: ProofRequest) => Promise<void> {
  const algorithms = [...(options.algorithms ?? DEFAULT_DPOP_ALGORITHMS)];
  const window = options.maxAgeSeconds ?? 300;
  const seen = new Map<string, number>();

  function remember(id: string, now: number): boolean {
    for (const [known, until] of seen) {
      if (until > now && seen.size < MAX_REMEMBERED) break;
      seen.delete(known);
    }
    if (seen.has(id)) return false;
    seen.set(id, now + 2 * window);
    return true;
  }

  return async (proof, request) => {
    if (proof === null || proof === '') throw new DpopProofError('Send a DPoP proof in the DPoP header');
    if (proof.length > MAX_PROOF || proof.includes(','))
      throw new DpopProofError('Send exactly one DPoP proof');
    const jose = await importJose('DPoP proofs');
    let header: ReturnType<typeof jose.decodeProtectedHeader>;
    try {
      header = jose.decodeProtectedHeader(proof);
    } catch {
      throw new DpopProofError('The DPoP proof is not a JWT');
    }
    if (header.typ !== 'dpop+jwt') throw new DpopProofError('The DPoP proof must have typ dpop+jwt');
    if (typeof header.alg !== 'string' || !algorithms.includes(header.alg))
      throw new DpopProofError(`The DPoP proof must be signed with one of ${algorithms.join(', ')}`);
    const jwk = header.jwk;
    if (typeof jwk !== 'object' || jwk === null || 'd' in jwk)
      throw new DpopProofError('The DPoP proof must carry its public key (jwk) in its header');
    let claims: Record<string, unknown>;
    try {
      const key = await jose.importJWK(jwk, header.alg);
      claims = (await jose.jwtVerify(proof, key, { algorithms: [header.alg], typ: 'dpop+jwt' })).payload;
    } catch {
      throw new DpopProofError('The DPoP proof signature does not verify');
    }
    const { jti, htm, htu, iat, ath } = claims;
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI)
      throw new DpopProofError('The DPoP proof needs a jti');
    if (htm !== request.method) throw new DpopProofError(`The DPoP proof is not for ${request.method} (htm)`);
    if (typeof htu !== 'string' || !request.urls.some((url) => sameUri(htu, url)))
      throw new DpopProofError('The DPoP proof is not for this URL (htu)');
    const now = Math.floor(Date.now() / 1000);
    if (typeof iat !== 'number' || Math.abs(now - iat) > window)
      throw new DpopProofError('The DPoP proof is too old or from the future (iat); make a fresh one');
    if (ath !== createHash('sha256').update(request.accessToken).digest('base64url'))
      throw new DpopProofError('The DPoP proof is not for this access token (ath)');
    if ((await jose.calculateJwkThumbprint(jwk, 'sha256')) !== request.jkt)
      throw new DpopProofError('The DPoP proof is not signed by the key the access token is bound to');
    if (!remember(`${request.jkt} ${jti}`, now))
      throw new DpopProofError('This DPoP proof was used before; make a fresh one for every request');
  };
}

/** `htu` compared as RFC 9449 §4.3 says: without query and fragment, scheme and host case-blind. */
function sameUri(htu: string, expected: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(htu);
    b = new URL(expected);
  } catch {
    return false;
  }
  return a.origin === b.origin && a.pathname === b.pathname;
}
