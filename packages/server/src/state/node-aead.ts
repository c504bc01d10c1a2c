import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { AeadBackend } from '@parley/core/seal';
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
      return Buffer.concat([head, decipher.final()]);
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
    if (!BASE64URL.test(text)) return undefined;
    const bytes = Buffer.from(text, 'base64url');
    // One spelling per token: refuse text whose last character carries stray bits.
    return bytes.toString('base64url') === text ? bytes : undefined;
  },
};

const BASE64URL = /^[A-Za-z0-9_-]*$/;
