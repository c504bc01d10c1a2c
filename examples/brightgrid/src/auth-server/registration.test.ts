// Brightgrid ID's open registration endpoint (RFC 7591) against a real oidc-provider on loopback
// (issue 24, findings 4, 5 and 7): what an app may register as, how fast and how many one address
// may register, and that registrations nobody used go away.
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db.js';
import type { RegistrationLimits } from './registration-guard.js';
import { type AuthServer, listenAuthServer } from './start.js';

let store: Store | undefined;
let server: AuthServer | undefined;
afterEach(async () => {
  await server?.close();
  store?.close();
  server = undefined;
  store = undefined;
});

async function start(registration: Partial<RegistrationLimits> = {}): Promise<string> {
  store = openStore({ dir: ':memory:' });
  server = await listenAuthServer(store);
  await server.configure({
    resource: 'http://127.0.0.1:1/mcp',
    resourceScopes: ['store'],
    clients: [],
    registration,
  });
  return server.issuer;
}

function register(issuer: string, metadata: Record<string, unknown>) {
  return fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
  });
}

const app = (name: string, redirect = 'https://shop-helper.example/cb') => ({
  client_name: name,
  redirect_uris: [redirect],
});

/** Whether the provider still knows a client: an authorization request names it. */
async function known(
  issuer: string,
  clientId: string,
  redirect = 'https://shop-helper.example/cb',
): Promise<boolean> {
  const url = new URL(`${issuer}/auth`);
  for (const [name, value] of Object.entries({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: 'manual' });
  const text = await response.text();
  return !/invalid_client/.test(text);
}

describe('what an app may register', () => {
  it('refuses plain-http redirects off this computer and redirects with a user name in them (finding 7)', async () => {
    const issuer = await start();
    for (const [redirect, reason] of [
      ['http://evil.example/cb', /plain http off this computer/],
      ['https://user:pw@evil.example/cb', /user name or password/],
    ] as const) {
      const response = await register(issuer, app('Shop Helper', redirect));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'invalid_redirect_uri',
        error_description: expect.stringMatching(reason),
      });
    }
    expect((await register(issuer, app('Shop Helper', 'http://127.0.0.1:9/cb'))).status).toBe(201);
    expect((await register(issuer, app('Shop Helper'))).status).toBe(201);
  });

  it('refuses a new app that calls itself Parley (or the lab) but sends the browser elsewhere, or Brightgrid (finding 4)', async () => {
    const issuer = await start();
    for (const name of ['Parley', 'Parley lab', 'Pаrley lab', 'Brightgrid store']) {
      const response = await register(issuer, app(name));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error_description: string }).error_description).toMatch(
        /choose your app's own name/,
      );
    }
    expect((await register(issuer, app('Parley lab', 'http://127.0.0.1:4242/oauth/callback'))).status).toBe(
      201,
    );
  });
});

describe('how much one address may register (finding 5)', () => {
  it('refuses registrations past the per-minute limit with 429 and Retry-After', async () => {
    const issuer = await start({ perAddressPerMinute: 5 });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const response = await register(issuer, app(`App ${i}`));
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
      await response.body?.cancel();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('keeps at most maxUnusedPerAddress unused registrations per address, forgetting the oldest', async () => {
    const issuer = await start({ maxUnusedPerAddress: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await register(issuer, app(`App ${i}`));
      ids.push(((await response.json()) as { client_id: string }).client_id);
    }
    expect(await known(issuer, ids[0]!)).toBe(false);
    for (const id of ids.slice(1)) expect(await known(issuer, id)).toBe(true);
  });

  it('forgets a registration nobody used once unusedTtlSeconds passed', async () => {
    const issuer = await start({ unusedTtlSeconds: 1 });
    const response = await register(issuer, app('Shop Helper'));
    const { client_id: id } = (await response.json()) as { client_id: string };
    expect(await known(issuer, id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await known(issuer, id)).toBe(false);
  });
});
