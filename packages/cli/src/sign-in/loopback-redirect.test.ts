import { describe, expect, it } from 'vitest';
import { LoopbackRedirect } from './loopback-redirect.js';

describe('LoopbackRedirect', () => {
  it('listens on 127.0.0.1 at a free port and hands over the first callback, then stops', async () => {
    const redirect = new LoopbackRedirect();
    const uri = await redirect.start();
    expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(await redirect.start()).toBe(uri);
    const next = redirect.next(AbortSignal.timeout(5000));
    expect((await fetch(new URL('/elsewhere', uri))).status).toBe(404);
    const page = await fetch(`${uri}?code=abc&state=xyz`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('Signed in');
    expect((await next).searchParams.get('code')).toBe('abc');
    await redirect.close();
    await expect(fetch(uri)).rejects.toThrow();
  });

  it('gives up when the signal aborts', async () => {
    const redirect = new LoopbackRedirect();
    await redirect.start();
    const controller = new AbortController();
    const next = redirect.next(controller.signal);
    controller.abort(new Error('timed out'));
    await expect(next).rejects.toThrow('timed out');
    await redirect.close();
  });
});
