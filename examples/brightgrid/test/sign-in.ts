import type { Authorize } from '@parley/client/oauth';
import { passBrightgridIdPage } from '@parley/testing';
import type { Page } from 'playwright-core';

/**
 * Signs in at Brightgrid ID as a person would, over plain HTTP (no browser): follows the
 * authorization URL, fills the sign-in page, allows on the consent page, and returns the URL the
 * browser would be sent back to. `consent: 'deny'` presses Deny instead.
 */
export function signInWithPassword(
  username: string,
  password: string,
  options: { consent?: 'allow' | 'deny'; pages?: string[] } = {},
): Authorize {
  return async (authorizationUrl) => {
    const cookies = new Map<string, string>();
    const issuerOrigin = authorizationUrl.origin;
    const request = async (url: URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      return response;
    };
    const post = (url: URL, form: Record<string, string>) =>
      request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: issuerOrigin },
        body: new URLSearchParams(form),
      });
    let url = authorizationUrl;
    let response = await request(url);
    for (let step = 0; step < 20; step++) {
      const location = response.headers.get('location');
      if (location !== null) {
        const next = new URL(location, url);
        await response.body?.cancel();
        if (next.origin !== issuerOrigin) return next;
        url = next;
        response = await request(url);
        continue;
      }
      const page = await response.text();
      options.pages?.push(page);
      const refused = /class="error" role="alert">([^<]+)</.exec(page)?.[1];
      if (refused !== undefined) throw new Error(`Brightgrid ID refused the sign-in: ${refused}`);
      const action = /action="([^"]+)"/.exec(page)?.[1];
      if (action === undefined)
        throw new Error(`Brightgrid ID answered ${response.status}: ${page.slice(0, 300)}`);
      const target = new URL(action.replaceAll('&amp;', '&'), url);
      response = action.endsWith('/login')
        ? await post(target, { username, password })
        : await post(target, { decision: options.consent ?? 'allow' });
      url = target;
    }
    throw new Error('Signing in at Brightgrid ID took more than 20 steps');
  };
}

/**
 * Signs in at Brightgrid ID in a real browser page, as a person would: the sign-in page (unless
 * the browser is signed in there already), then Allow on the consent page (when asked). Resolves
 * with the URL Brightgrid ID sent the browser back to (`redirectUri` is answered by the test).
 */
export function signInInBrowser(
  page: Page,
  redirectUri: string,
  username: string,
  password: string,
): Authorize {
  return async (authorizationUrl) => {
    let callback: URL | undefined;
    const isCallback = (url: URL) => url.href.startsWith(redirectUri);
    await page.route(isCallback, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Signed in; close this tab.' });
    });
    try {
      await page.goto(authorizationUrl.href);
      for (let step = 0; step < 4 && callback === undefined; step++) {
        const login = page.getByLabel('User name');
        const allow = page.getByRole('button', { name: 'Allow' });
        const done = page.getByText('Signed in; close this tab.');
        await login.or(allow).or(done).first().waitFor();
        if (callback !== undefined) break;
        await passBrightgridIdPage(page, username, password);
      }
    } finally {
      await page.unroute(isCallback);
    }
    if (callback === undefined)
      throw new Error(`Brightgrid ID did not send the browser back (at ${page.url()})`);
    return callback;
  };
}
