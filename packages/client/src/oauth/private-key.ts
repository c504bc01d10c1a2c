import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import * as jose from 'jose';
import { SignInError } from './sign-in-error.js';

/**
 * A client's private key: PEM text (PKCS #8, or a traditional RSA or EC key), a private JWK, or a
 * WebCrypto key that can sign.
 */
export type ClientPrivateKey = string | JsonWebKey | jose.CryptoKey;

/** The JWS algorithm a key signs with when none is named: what its type and curve call for. */
function defaultAlgorithm(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'rsa-pss') return 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
    if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
    if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
  }
  throw new SignInError(
    `The client's private key is of a type this client cannot sign with (${type ?? 'unknown'}); use an EC P-256 (ES256), RSA or Ed25519 key`,
  );
}

/**
 * Reads a client's private key for `private_key_jwt`, with the algorithm it signs with (`alg`,
 * else the JWK's `alg`, else what the key type calls for: ES256 for P-256, RS256 for RSA). The
 * key never appears in an error.
 */
export async function importClientKey(
  key: ClientPrivateKey,
  alg?: string,
): Promise<{ readonly key: jose.CryptoKey; readonly alg: string }> {
  if (isCryptoKey(key)) {
    if (key.type !== 'private' || !key.usages.includes('sign'))
      throw new SignInError("The client's key must be a private key that can sign");
    return { key, alg: alg ?? key.algorithm.name };
  }
  let keyObject: KeyObject;
  try {
    keyObject =
      typeof key === 'string'
        ? createPrivateKey({ key, format: 'pem' })
        : createPrivateKey({ key: key as JsonWebKey, format: 'jwk' });
  } catch {
    throw new SignInError(
      "The client's private key cannot be read: give a PEM private key (PKCS #8, RSA or EC) or a private JWK",
    );
  }
  const named = typeof key === 'object' && typeof key.alg === 'string' ? key.alg : undefined;
  const chosen = alg ?? named ?? defaultAlgorithm(keyObject);
  try {
    const jwk = keyObject.export({ format: 'jwk' }) as jose.JWK;
    return { key: (await jose.importJWK(jwk, chosen)) as jose.CryptoKey, alg: chosen };
  } catch {
    throw new SignInError(
      `The client's private key cannot sign with ${chosen}; name the algorithm it is for`,
    );
  }
}

/** A WebCrypto key (the global class, which Node has from version 17 on). */
function isCryptoKey(key: ClientPrivateKey): key is jose.CryptoKey {
  const WebCryptoKey = (globalThis as { CryptoKey?: abstract new () => unknown }).CryptoKey;
  return WebCryptoKey !== undefined && key instanceof WebCryptoKey;
}
