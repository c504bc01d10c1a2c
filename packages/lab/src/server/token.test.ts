import { describe, expect, it } from 'vitest';
import { bearerToken, createToken, isLabToken } from './token.js';

describe('lab tokens', () => {
  it('are 32 random bytes in base64url, different each time', () => {
    const token = createToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createToken()).not.toBe(token);
  });

  it('match only exactly', () => {
    const token = createToken();
    expect(isLabToken(token, token)).toBe(true);
    expect(isLabToken(`${token}x`, token)).toBe(false);
    expect(isLabToken(token.slice(1), token)).toBe(false);
    expect(isLabToken('', token)).toBe(false);
    expect(isLabToken(null, token)).toBe(false);
    expect(isLabToken(undefined, token)).toBe(false);
  });

  it('are read from a bearer header only in its exact form', () => {
    expect(bearerToken('Bearer abc_-9')).toBe('abc_-9');
    expect(bearerToken('bearer abc')).toBeUndefined();
    expect(bearerToken('Bearer abc def')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
