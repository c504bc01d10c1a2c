import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the password it hashed and nothing else', () => {
    const hash = hashPassword('wonderland');
    expect(verifyPassword('wonderland', hash)).toBe(true);
    expect(verifyPassword('Wonderland', hash)).toBe(false);
    expect(verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash, so equal passwords store differently', () => {
    const a = hashPassword('same');
    const b = hashPassword('same');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  });

  it('never matches a malformed or tampered hash', () => {
    const hash = hashPassword('wonderland');
    const parts = hash.split('$');
    expect(verifyPassword('wonderland', '')).toBe(false);
    expect(verifyPassword('wonderland', 'plain:wonderland')).toBe(false);
    expect(verifyPassword('wonderland', parts.slice(0, 5).join('$'))).toBe(false);
    expect(verifyPassword('wonderland', [...parts.slice(0, 5), 'AAAA'].join('$'))).toBe(false);
    expect(verifyPassword('wonderland', ['scrypt', 'x', ...parts.slice(2)].join('$'))).toBe(false);
    expect(verifyPassword('wonderland', ['scrypt', '3', ...parts.slice(2)].join('$'))).toBe(false);
  });
});
