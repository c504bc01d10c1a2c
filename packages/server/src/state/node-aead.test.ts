import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeAead } from './node-aead.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('nodeAead tokens', () => {
  it('round-trips any bytes as unpadded base64url', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = randomBytes(length);
      const text = nodeAead.encodeToken!(bytes);
      expect(text).toBe(bytes.toString('base64url'));
      expect(nodeAead.decodeToken!(text)).toEqual(bytes);
    }
  });

  it('takes one spelling per token: a last character with stray bits, or a lone one, is refused', () => {
    for (let length = 1; length < 8; length++) {
      const text = nodeAead.encodeToken!(randomBytes(length));
      for (const last of ALPHABET) {
        const variant = text.slice(0, -1) + last;
        const canonical = Buffer.from(variant, 'base64url').toString('base64url') === variant;
        expect(nodeAead.decodeToken!(variant) !== undefined, variant).toBe(canonical);
      }
    }
    expect(nodeAead.decodeToken!('AB')).toBeUndefined();
    for (const lone of ['A', 'AAAAA', 'AAAAAAAAA']) expect(nodeAead.decodeToken!(lone)).toBeUndefined();
  });

  it('refuses padding and characters outside base64url', () => {
    for (const text of ['AA==', 'AA+A', 'AA/A', 'AA A', 'AAA\n'])
      expect(nodeAead.decodeToken!(text)).toBeUndefined();
  });
});
