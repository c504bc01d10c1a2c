import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { AeadBackend } from '@parley/core/seal';
import { BASE64URL_ALPHABET } from './base64url-alphabet.js';
import { randomBytesPooled } from './random-pool.js';

const TAG_BYTES = 16;
const IV_BYTES = 12;

/**
 * AES-256-GCM through node:crypto. Same algorithm and token format as the WebCrypto backend
 * (tokens sealed by one open with the other), but synchronous: a round's seal + open costs a few
 * microseconds instead of a thread-pool hop each way.
 */
export const nodeAead: AeadBackend<Buffer> = {
  async importKey(material) {
    return Buffer.from(material);
  },
  encrypt(key, iv, plaintext, aad) {
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(aad);
    const head = cipher.update(plaintext);
    const tail = cipher.final();
    return Buffer.concat([head, tail, cipher.getAuthTag()]);
  },
  decrypt(key, iv, sealed, aad) {
    if (sealed.length < TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const head = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
      const tail = decipher.final(); // empty for GCM: the plaintext is `head`, not copied again
      return tail.length === 0 ? head : Buffer.concat([head, tail]);
    } catch {
      return undefined;
    }
  },
  randomIv() {
    return randomBytesPooled(IV_BYTES);
  },
  encodeToken(bytes) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
  },
  decodeToken(text) {
    if (!BASE64URL.test(text) || !canonicalEnd(text)) return undefined;
    return Buffer.from(text, 'base64url');
  },
};

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * One spelling per token: unpadded base64url whose length leaves a partial group (2 or 3 chars)
 * must have zero bits past the data in its last character, and a group of 1 char is no encoding.
 * Read from the last character alone, so the token is not encoded again to compare.
 */
function canonicalEnd(text: string): boolean {
  const rest = text.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  const last = BASE64URL_ALPHABET.indexOf(text[text.length - 1]!);
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0;
}
