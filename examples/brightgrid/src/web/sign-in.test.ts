import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db.js';
import { homeRoute } from './home.js';
import { WebSessions } from './session.js';
import { signInRoutes } from './sign-in.js';

const ORIGIN = 'http://127.0.0.1:4100';
let store: Store;
let sessions: WebSessions;
let signIn: ReturnType<typeof signInRoutes>;

beforeEach(() => {
  store = openStore({ dir: ':memory:' });
  sessions = new WebSessions(store, ORIGIN);
  signIn = signInRoutes(store, sessions);
});
afterEach(() => store.close());

/** Cookies from `Set-Cookie`, as a `Cookie` header value. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function showForm(returnTo = '/connect/abc') {
  const response = (await signIn(new Request(`${ORIGIN}/signin?return_to=${encodeURIComponent(returnTo)}`)))!;
  const html = await response.text();
  return {
    response,
    html,
    csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
    returnTo: /name="return_to" value="([^"]*)"/.exec(html)?.[1] ?? '',
    cookie: cookiesOf(response),
  };
}

function post(fields: Record<string, string>, headers: Record<string, string>) {
  return new Request(`${ORIGIN}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('the store sign-in page', () => {
  it('shows a form with a fresh anti-CSRF token, strict headers, and where to go back to', async () => {
    const { response, html, csrf, returnTo } = await showForm('http://127.0.0.1:4100/connect/abc?x=1');
    expect(response.status).toBe(200);
    expect(csrf).toMatch(/^[\w-]{43}$/);
    expect(returnTo).toBe('/connect/abc?x=1');
    expect(html).toContain('<input id="password" name="password" type="password"');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
  });

  it('signs in with the right password and goes back to the page that asked', async () => {
    const form = await showForm('/connect/abc');
    const response = (await signIn(
      post(
        { csrf: form.csrf, return_to: form.returnTo, username: 'alice', password: 'wonderland' },
        { cookie: form.cookie, origin: ORIGIN },
      ),
    ))!;
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/connect/abc');
    const session = sessions.current(new Request(ORIGIN, { headers: { cookie: cookiesOf(response) } }));
    expect(session?.user).toBe('alice');

    const home = await homeRoute(
      store,
      sessions,
    )(new Request(`${ORIGIN}/`, { headers: { cookie: cookiesOf(response) } }))!;
    expect(await home.text()).toContain('Hello, Alice Liddell');
  });

  it('refuses a wrong password without saying which part was wrong', async () => {
    const form = await showForm();
    const response = (await signIn(
      post(
        { csrf: form.csrf, return_to: form.returnTo, username: 'alice', password: 'bricklayer' },
        { cookie: form.cookie, origin: ORIGIN },
      ),
    ))!;
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('Wrong user name or password.');
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('brightgrid_session='))).toBe(
      false,
    );
  });

  it.each([
    { case: 'no token cookie', sendCookie: false, origin: ORIGIN, forge: false },
    { case: 'another site', sendCookie: true, origin: 'http://127.0.0.1:9999', forge: false },
    { case: 'a forged token', sendCookie: true, origin: ORIGIN, forge: true },
  ])('refuses a sign-in POST with $case', async ({ sendCookie, origin, forge }) => {
    const form = await showForm();
    const fields = {
      csrf: forge ? 'forged' : form.csrf,
      return_to: form.returnTo,
      username: 'alice',
      password: 'wonderland',
    };
    const response = (await signIn(post(fields, { cookie: sendCookie ? form.cookie : '', origin })))!;
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('brightgrid_session='))).toBe(
      false,
    );
  });

  it.each([
    { fetchSite: 'same-origin', status: 303 },
    { fetchSite: 'cross-site', status: 403 },
  ])('reads Sec-Fetch-Site when the Origin is "null" ($fetchSite)', async ({ fetchSite, status }) => {
    const form = await showForm();
    const fields = { csrf: form.csrf, return_to: form.returnTo, username: 'alice', password: 'wonderland' };
    const headers = { cookie: form.cookie, origin: 'null', 'sec-fetch-site': fetchSite };
    expect((await signIn(post(fields, headers)))!.status).toBe(status);
  });

  it.each([
    'https://evil.example/phish',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    // Issue 15, finding 3: these normalise to a same-origin URL whose path starts with `//`, which a
    // browser reads as another host.
    '/.//evil.example/x',
    '/..//evil.example/x',
    '/./\\evil.example/x',
    `${ORIGIN}//evil.example/x`,
    `${ORIGIN}/\\evil.example/x`,
    '/%2e//evil.example/x',
  ])('never sends a browser to another site after sign-in (%s)', async (target) => {
    const form = await showForm(target);
    expect(form.returnTo).toBe('/');
    const response = (await signIn(
      post(
        { csrf: form.csrf, return_to: target, username: 'bob', password: 'bricklayer' },
        { cookie: form.cookie, origin: ORIGIN },
      ),
    ))!;
    expect(response.headers.get('location')).toBe('/');
  });

  it('signs out only with the session’s own token', async () => {
    const session = store.startWebSession('bob');
    const cookie = `brightgrid_session=${session.id}`;
    const signOut = (csrf: string) =>
      signIn(
        new Request(`${ORIGIN}/signout`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: ORIGIN },
          body: `csrf=${csrf}`,
        }),
      );
    await signOut('forged');
    expect(store.webSession(session.id)?.user).toBe('bob');
    const response = (await signOut(session.csrf))!;
    expect(response.headers.get('set-cookie')).toMatch(/^brightgrid_session=; .*Max-Age=0/);
    expect(store.webSession(session.id)).toBeUndefined();
  });

  it('passes on paths it does not serve', async () => {
    expect(await signIn(new Request(`${ORIGIN}/mcp`))).toBeUndefined();
  });
});

// Issue 15, finding 7: sign-in had no throttling.
describe('sign-in throttling', () => {
  async function attempt(user: string, password: string, address: string) {
    const form = await showForm('/');
    return (await signIn(
      post(
        { csrf: form.csrf, return_to: '/', username: user, password },
        { cookie: form.cookie, origin: ORIGIN },
      ),
      { address },
    ))!;
  }

  it('refuses a user name after 5 wrong passwords from anywhere, even with the right one', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('alice', 'guess', `10.0.0.${i}`)).status).toBe(401);
    const refused = await attempt('alice', 'wonderland', '10.0.0.99');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many failed sign-ins');
    // Another user is not locked out by alice's attacker.
    expect((await attempt('bob', 'bricklayer', '10.0.0.99')).status).toBe(303);
  });

  it('refuses an address after 20 failures, whatever names it tries', async () => {
    for (let i = 0; i < 20; i++) expect((await attempt(`user${i}`, 'guess', '192.0.2.7')).status).toBe(401);
    expect((await attempt('bob', 'bricklayer', '192.0.2.7')).status).toBe(429);
    expect((await attempt('bob', 'bricklayer', '192.0.2.8')).status).toBe(303);
  });
});
