import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const hash = hashPassword('wonderland');
    expect(await verifyPassword('wonderland', hash)).toBe(true);
    expect(await verifyPassword('Wonderland', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash, so equal passwords store differently', () => {
    const a = hashPassword('same');
    const b = hashPassword('same');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  });

  it('never matches a malformed or tampered hash', async () => {
    const hash = hashPassword('wonderland');
    const parts = hash.split('$');
    expect(await verifyPassword('wonderland', '')).toBe(false);
    expect(await verifyPassword('wonderland', 'plain:wonderland')).toBe(false);
    expect(await verifyPassword('wonderland', parts.slice(0, 5).join('$'))).toBe(false);
    expect(await verifyPassword('wonderland', [...parts.slice(0, 5), 'AAAA'].join('$'))).toBe(false);
    expect(await verifyPassword('wonderland', ['scrypt', 'x', ...parts.slice(2)].join('$'))).toBe(false);
    expect(await verifyPassword('wonderland', ['scrypt', '3', ...parts.slice(2)].join('$'))).toBe(false);
  });

  // Issue 15, finding 7: sign-in ran scryptSync on the event loop; 96 wrong passwords in 10 s
  // pushed tools/list from p50 2 ms to 244 ms.
  it('hashes off the event loop: timers keep firing while eight checks run', async () => {
    const hash = hashPassword('wonderland');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await Promise.all(Array.from({ length: 8 }, () => verifyPassword('wrong', hash)));
    clearInterval(timer);
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});
