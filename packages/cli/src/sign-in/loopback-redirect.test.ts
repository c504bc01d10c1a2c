import { describe, expect, it } from 'vitest';
import { LoopbackRedirect } from './loopback-redirect.js';

describe('LoopbackRedirect', () => {
  it('listens on 127.0.0.1 at a free port and hands over the first callback, then stops', async () => {
    const redirect = new LoopbackRedirect();
    const uri = await redirect.start();
    expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(await redirect.start()).toBe(uri);
    const next = redirect.next(AbortSignal.timeout(5000), 'xyz');
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
    const next = redirect.next(controller.signal, 'xyz');
    controller.abort(new Error('timed out'));
    await expect(next).rejects.toThrow('timed out');
    await redirect.close();
  });

  // Issue 24, suspected item: any page in the person's browser (or any local process) can request
  // the listener's address; before, the first such request was taken as the answer and the
  // sign-in failed on its state.
  it('ignores a forged callback (another state, or none): the sign-in in progress goes on', async () => {
    const redirect = new LoopbackRedirect();
    const uri = await redirect.start();
    let settled = false;
    const next = redirect.next(AbortSignal.timeout(5000), 'the-real-state');
    void next.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    for (const forged of [
      `${uri}?error=access_denied&state=guess`,
      `${uri}?error=access_denied`,
      `${uri}?code=stolen`,
    ]) {
      const page = await fetch(forged);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('not the sign-in parley is waiting for');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    const real = await fetch(`${uri}?code=abc&state=the-real-state`);
    expect(real.status).toBe(200);
    expect((await next).searchParams.get('code')).toBe('abc');
    await redirect.close();
  });
});
