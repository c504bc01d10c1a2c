/**
 * The AES-256-GCM primitive behind a {@link KeyRing}. The default uses WebCrypto, which runs in
 * browsers and Node alike; a server may plug in a faster synchronous one (same algorithm, same
 * token format).
 */
export interface AeadBackend<K = unknown> {
  /** Imports 32 bytes of key material (already derived with HKDF) for AES-256-GCM. */
  importKey(material: Uint8Array): Promise<K>;
  /** Encrypts; the result is the ciphertext followed by the 16-byte tag. */
  encrypt(key: K, iv: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> | Uint8Array;
  /** Decrypts and authenticates; `undefined` when the tag does not verify. */
  decrypt(
    key: K,
    iv: Uint8Array,
    ciphertext: Uint8Array,
    aad: Uint8Array,
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** Fills a fresh random IV. */
  randomIv(): Uint8Array;
  /** Unpadded base64url, when the platform has a faster one than the portable default. */
  encodeToken?(bytes: Uint8Array): string;
  /** The inverse of `encodeToken`: `undefined` for text that is not canonical unpadded base64url. */
  decodeToken?(text: string): Uint8Array | undefined;
}

const webCrypto: AeadBackend<CryptoKey> = {
  importKey(material) {
    return crypto.subtle.importKey('raw', material as BufferSource, { name: 'AES-GCM' }, false, [
      'encrypt',
      'decrypt',
    ]);
  },
  async encrypt(key, iv, plaintext, aad) {
    const params = { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource };
    return new Uint8Array(await crypto.subtle.encrypt(params, key, plaintext as BufferSource));
  },
  async decrypt(key, iv, ciphertext, aad) {
    const params = { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource };
    try {
      return new Uint8Array(await crypto.subtle.decrypt(params, key, ciphertext as BufferSource));
    } catch {
      return undefined;
    }
  },
  randomIv() {
    return crypto.getRandomValues(new Uint8Array(12));
  },
};

/**
 * AES-256-GCM through `globalThis.crypto.subtle`. Its keys are opaque to callers (WebCrypto
 * `CryptoKey`s), so its type needs neither the DOM nor WebCrypto typings in a project that uses it.
 */
export const webCryptoAead: AeadBackend = webCrypto;
