import { describe, expect, it } from 'vitest';
import { readCookies, setCookie } from './cookies.js';

describe('cookies', () => {
  it('reads cookies, keeping the first of duplicates and skipping malformed pairs', () => {
    const request = new Request('http://x/', {
      headers: { cookie: 'a=1; =bad; b=two%20words; a=3; c=%E0%A4%A; novalue' },
    });
    expect([...readCookies(request)]).toEqual([
      ['a', '1'],
      ['b', 'two words'],
    ]);
  });

  it('writes HttpOnly SameSite=Lax cookies, Secure on https, deletable with maxAge 0', () => {
    expect(setCookie('s', 'v w', { secure: false })).toBe('s=v%20w; Path=/; HttpOnly; SameSite=Lax');
    expect(setCookie('s', '', { secure: true, maxAge: 0 })).toBe(
      's=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });
});
