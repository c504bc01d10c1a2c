import { createHash } from 'node:crypto';
import { importJose } from './jose.js';
import { ProofIds } from './proof-ids.js';

/** How a server accepts DPoP-bound tokens (RFC 9449). */
export interface DpopOptions {
  /** Proof signing algorithms accepted. Default ES256, ES384, ES512, PS256, RS256, EdDSA. */
  readonly algorithms?: readonly string[];
  /** Accept only DPoP-bound tokens (bearer tokens are refused). Default false. */
  readonly required?: boolean;
  /** How far a proof's `iat` may be from now, in seconds. Default 300 (the MCP DPoP profile). */
  readonly maxAgeSeconds?: number;
  /**
   * Proofs one key may have remembered at once, that is, its rate over the window (`maxAgeSeconds`
   * each side of now); past it, its requests get 429 until its older proofs expire. Default 6,000
   * (20 a second on average).
   */
  readonly maxProofsPerKey?: number;
  /**
   * Proof ids remembered at once, across all keys. An id is kept as long as a replay of its proof
   * could pass, never less: when this many are held, new proofs get 503 until old ones expire.
   * Default 100,000.
   */
  readonly maxRememberedProofs?: number;
}

export const DEFAULT_DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'RS256', 'EdDSA'];

/** Why a proof was refused; the message is safe to send back (it never echoes the proof). */
export class DpopProofError extends Error {
  override readonly name = 'DpopProofError';
}

/**
 * A proof that may be good, refused for want of room to remember it: 429 when its key sent too many
 * within the window, 503 when the replay cache is full. Try again after `retryAfter` seconds.
 */
export class DpopBusyError extends Error {
  override readonly name = 'DpopBusyError';

  constructor(
    readonly status: 429 | 503,
    readonly retryAfter: number,
  ) {
    super(
      status === 429
        ? 'Too many DPoP proofs from this key in the last few minutes; slow down and try again'
        : 'This server cannot take more DPoP proofs right now; try again shortly',
    );
  }
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

/**
 * A DPoP proof checker (RFC 9449 §4.3): one well-formed proof JWT of type `dpop+jwt`, signed
 * with an accepted asymmetric algorithm by the public key in its header, for this request's method
 * and URL (without query or fragment), issued within the allowed window, for this access token
 * (`ath`), by the key the token is bound to (`cnf.jkt`), and never seen before (`jti`, kept in
 * memory for as long as its proof could pass: a fleet of servers shares no memory, so each checks
 * its own). Throws {@link DpopProofError} for a bad proof, {@link DpopBusyError} when there is no
 * room to remember a good one (an id is never forgotten early to make room).
 */
export function dpopProofChecker(
  options: DpopOptions = {},
): (proof: string | null, request: ProofRequest) => Promise<void> {
  const algorithms = [...(options.algorithms ?? DEFAULT_DPOP_ALGORITHMS)];
  const window = options.maxAgeSeconds ?? 300;
  const seen = new ProofIds({
    maxPerKey: options.maxProofsPerKey ?? 6_000,
    max: options.maxRememberedProofs ?? 100_000,
  });

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
    // A replay of this proof passes the checks above until iat + window: it is remembered that long.
    const verdict = seen.remember(request.jkt, jti, iat + window + 1, now);
    if (verdict === 'replayed')
      throw new DpopProofError('This DPoP proof was used before; make a fresh one for every request');
    if (verdict !== 'new') throw new DpopBusyError(verdict === 'key-busy' ? 429 : 503, seen.retryAfter(now));
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
