import type { FetchLike } from '@modelcontextprotocol/client';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';
import { SignInError } from './sign-in-error.js';
import type { StoredDpopKey } from './store.js';
import { type AuthChallenge, parseChallenges } from './www-authenticate.js';

/**
 * When to bind tokens to a key with DPoP (RFC 9449). `auto` (the default): when the server asks
 * for it (a `DPoP` challenge, or `dpop_bound_access_tokens_required` in its metadata) and its
 * authorization server offers it; `always`: with every authorization server that offers it;
 * `never`: bearer tokens only (a server that requires DPoP then cannot be used).
 */
export type DpopPolicy = 'auto' | 'always' | 'never';

/** The proof algorithms this client signs with, in the order it prefers them. */
const ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256'];

/** What the server and its authorization server said about DPoP before a sign-in. */
export interface DpopSignals {
  readonly policy: DpopPolicy;
  /** The challenges of the server's 401 (none when signing in ahead of a request). */
  readonly challenges: readonly AuthChallenge[];
  /** `dpop_bound_access_tokens_required` from the protected resource metadata (RFC 9728). */
  readonly required: boolean;
  readonly as: oauth.AuthorizationServer;
}

/**
 * The algorithm to sign DPoP proofs with for this sign-in, or `undefined` for a bearer token. An
 * authorization server that does not list `dpop_signing_alg_values_supported` is still sent a
 * proof when the server accepts nothing else (it ignores a proof it does not understand).
 */
export function dpopAlgorithm(signals: DpopSignals): string | undefined {
  const offered = signals.challenges.some((challenge) => challenge.scheme === 'dpop');
  const bearerToo = signals.challenges.some((challenge) => challenge.scheme === 'bearer');
  const required = signals.required || (offered && !bearerToo);
  const listed = signals.as.dpop_signing_alg_values_supported;
  if (signals.policy === 'never') {
    if (required)
      throw new SignInError(
        `The server accepts only DPoP-bound tokens (RFC 9449) and this client was set never to use DPoP (dpop: 'never'); allow it`,
      );
    return undefined;
  }
  const wanted = signals.policy === 'always' || offered || signals.required;
  if (!wanted) return undefined;
  if (listed === undefined) return required || signals.policy === 'always' ? ALGORITHMS[0] : undefined;
  const usable = ALGORITHMS.find((alg) => listed.includes(alg));
  if (usable === undefined && required) {
    throw new SignInError(
      `The server accepts only DPoP-bound tokens, but its authorization server ${signals.as.issuer} signs DPoP proofs with none of ${ALGORITHMS.join(', ')} (it lists ${listed.join(', ') || 'none'})`,
    );
  }
  return usable;
}

/** A new key pair for DPoP proofs, as a private JWK the store can keep (it is a secret). */
export async function newDpopKey(alg: string): Promise<StoredDpopKey> {
  const { privateKey } = await jose.generateKeyPair(alg, { extractable: true });
  return { alg, jwk: keyMaterial(await jose.exportJWK(privateKey)) };
}

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']);

/** Only the key itself: usage hints (`key_ops`, `ext`) would stop the public half importing. */
function keyMaterial(jwk: jose.JWK): jose.JWK {
  const { kty, crv, x, y, n, e, d, p, q, dp, dq, qi } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, n, e, d, p, q, dp, dq, qi }).filter(([, value]) => value !== undefined),
  ) as jose.JWK;
}

/** An oauth4webapi DPoP handle for a stored key: signs proofs and remembers nonces per origin. */
export async function dpopHandle(key: StoredDpopKey): Promise<oauth.DPoPHandle> {
  const material = keyMaterial(key.jwk);
  const publicJwk = Object.fromEntries(
    Object.entries(material).filter(([name]) => !PRIVATE_MEMBERS.has(name)),
  );
  try {
    const privateKey = (await jose.importJWK(material, key.alg)) as oauth.CryptoKey;
    const publicKey = (await jose.importJWK(publicJwk as jose.JWK, key.alg, {
      extractable: true,
    })) as oauth.CryptoKey;
    return oauth.DPoP({}, { privateKey, publicKey });
  } catch (error) {
    throw new SignInError('The stored DPoP key cannot be read; sign out of the server and sign in again', {
      cause: error,
    });
  }
}

/**
 * A request to the protected server with a DPoP-bound token: `Authorization: DPoP <token>` and a
 * fresh proof (its own `jti`, `htm`, `htu`, `iat` and `ath`). When the server answers 401
 * `use_dpop_nonce`, the request is sent once more with the nonce it gave (RFC 9449 §9).
 */
export async function dpopRequest(
  accessToken: string,
  input: string | URL,
  init: RequestInit | undefined,
  handle: oauth.DPoPHandle,
  fetchFn: FetchLike,
): Promise<Response> {
  const url = new URL(input);
  const method = (init?.method ?? 'GET').toUpperCase();
  const headers = new Headers(init?.headers);
  headers.delete('authorization');
  headers.delete('dpop');
  const body = init?.body as oauth.ProtectedResourceRequestBody;
  const send = async (): Promise<Response> => {
    try {
      return await oauth.protectedResourceRequest(accessToken, method, url, headers, body, {
        DPoP: handle,
        [oauth.customFetch]: fetchFn as typeof fetch,
        // The host chose the server's URL; a bearer token goes there as well.
        [oauth.allowInsecureRequests]: true,
        ...(init?.signal != null && { signal: init.signal }),
      });
    } catch (error) {
      // A challenge is an answer like any other: the session decides what it means.
      if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
      throw error;
    }
  };
  const response = await send();
  if (!isNonceChallenge(response) || body instanceof ReadableStream) return response;
  await response.body?.cancel().catch(() => {});
  return send();
}

function isNonceChallenge(response: Response): boolean {
  if (response.status !== 401) return false;
  return parseChallenges(response.headers.get('www-authenticate')).some(
    (challenge) => challenge.scheme === 'dpop' && challenge.params.error === 'use_dpop_nonce',
  );
}
