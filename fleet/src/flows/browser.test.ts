import { describe, expect, it } from 'vitest';
import type { HttpReply } from '../lb/send.js';
import { Browser, hiddenField, redirectPath } from './browser.js';

const reply = (headers: HttpReply['headers'], status = 200, body = ''): HttpReply => ({
  status,
  headers,
  body,
});

describe('Browser', () => {
  it('keeps the cookies pages set, sends them back, and forgets the ones a page deletes', () => {
    const browser = new Browser('http://127.0.0.1:8080');
    expect(browser.get('/').headers.cookie).toBeUndefined();
    browser.receive(
      reply({
        'set-cookie': [
          'brightgrid_session=s1; Path=/; HttpOnly; SameSite=Lax',
          'brightgrid_signin_csrf=c1; Path=/; Max-Age=600',
        ],
      }),
    );
    expect(browser.signedIn).toBe(true);
    expect(browser.get('/').headers.cookie).toBe('brightgrid_session=s1; brightgrid_signin_csrf=c1');
    browser.receive(reply({ 'set-cookie': ['brightgrid_session=; Path=/; Max-Age=0'] }));
    expect(browser.signedIn).toBe(false);
  });

  it('posts forms as its own origin, urlencoded', () => {
    const call = new Browser('http://127.0.0.1:8080').post('/signin', { csrf: 'a b', next: '/x?y=1' });
    expect(call.headers.origin).toBe('http://127.0.0.1:8080');
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call.body).toBe('csrf=a+b&next=%2Fx%3Fy%3D1');
  });
});

describe('page helpers', () => {
  it('read a hidden field and a same-origin redirect, and nothing else', () => {
    const html = '<form><input type="hidden" name="csrf" value="t0k"><input name="user"></form>';
    expect(hiddenField(html, 'csrf')).toBe('t0k');
    expect(hiddenField(html, 'missing')).toBeUndefined();
    const origin = 'http://127.0.0.1:8080';
    expect(redirectPath(reply({ location: '/connect/x?y=1' }, 303), origin)).toBe('/connect/x?y=1');
    expect(redirectPath(reply({ location: 'http://evil.example/x' }, 303), origin)).toBeUndefined();
    expect(redirectPath(reply({ location: '/x' }, 200), origin)).toBeUndefined();
  });
});
