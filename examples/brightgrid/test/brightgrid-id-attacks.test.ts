// Brightgrid ID as a deployment people could copy (issue 24, findings 4, 5 and 7), attacked on a
// real Brightgrid process with its real authorization server, the pages seen in a real Chromium.
// Before the fix: an app registered as "Parley" with the redirect https://evil.example/cb got a
// consent page that said only "Allow Parley?"; http:// and user-info redirects were registered; and
// one address registered as fast as it could, every registration kept.
import { createHash, randomBytes } from 'node:crypto';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

let brightgrid: BrightgridProcess;
let browser: Browser;
let issuer: string;

beforeAll(async () => {
  [brightgrid, browser] = await Promise.all([
    startBrightgridProcess(undefined, {}, { oauth: true }),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
  issuer = brightgrid.issuer!;
});
afterAll(async () => {
  await browser?.close();
  if (brightgrid) expect((await brightgrid.process.stop()).code).toBe(0);
});

function register(metadata: Record<string, unknown>) {
  return fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      ...metadata,
    }),
  });
}

/** An authorization request for `clientId`, as an MCP client makes it (PKCE, the resource). */
function authorizationUrl(clientId: string, redirectUri: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${issuer}/auth`);
  for (const [name, value] of Object.entries({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'store',
    resource: brightgrid.url,
    state: randomBytes(8).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  return url.href;
}

/** Opens the authorization request in a fresh browser, signs in as alice, and stays on the consent page. */
async function consentPageFor(clientId: string, redirectUri: string): Promise<{ page: Page; login: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(authorizationUrl(clientId, redirectUri));
  const login = (await page.locator('main').textContent()) ?? '';
  await page.getByLabel('User name').fill('alice');
  await page.getByLabel('Password').fill('wonderland');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).waitFor();
  return { page, login };
}

describe('the consent page', () => {
  it('shows where the browser goes and marks a self-registered app unverified', async () => {
    const redirect = 'https://shop-helper.example/callback';
    const response = await register({ client_name: 'Shop Helper', redirect_uris: [redirect] });
    expect(response.status).toBe(201);
    const { client_id: clientId } = (await response.json()) as { client_id: string };
    const { page, login } = await consentPageFor(clientId, redirect);
    try {
      expect(login).toContain('Unverified app');
      expect(login).toContain('shop-helper.example');
      const text = await page.locator('main').textContent();
      expect(text).toContain('Allow Shop Helper?');
      expect(text).toMatch(
        /Unverified app\. It registered itself with Brightgrid ID and chose the name “Shop Helper” itself/,
      );
      expect(await page.locator('.destination').textContent()).toBe('shop-helper.example');
      expect(text).not.toContain('an app on this computer');
    } finally {
      await page.context().close();
    }
  });

  it('says an app on this computer for a loopback redirect, as the lab and the parley command use', async () => {
    const redirect = 'http://127.0.0.1:45123/oauth/callback';
    const response = await register({
      client_name: 'Parley lab',
      redirect_uris: [redirect],
      application_type: 'native',
    });
    expect(response.status).toBe(201);
    const { client_id: clientId } = (await response.json()) as { client_id: string };
    const { page } = await consentPageFor(clientId, redirect);
    try {
      expect(await page.locator('.destination').textContent()).toBe('127.0.0.1:45123');
      expect(await page.locator('main').textContent()).toContain('(an app on this computer)');
    } finally {
      await page.context().close();
    }
  });
});

describe('registration', () => {
  it('refuses a new app that passes as Parley or the lab while sending the browser elsewhere', async () => {
    for (const name of ['Parley', 'Parley lab', 'Pаrley lab']) {
      const response = await register({ client_name: name, redirect_uris: ['https://evil.example/cb'] });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
  });

  it('refuses plain-http redirects off this computer and redirects carrying a user name or password', async () => {
    for (const redirect of ['http://evil.example/cb', 'https://alice:secret@evil.example/cb']) {
      const response = await register({ client_name: 'Shop Helper', redirect_uris: [redirect] });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });

  it('limits how fast one address registers (the attack registered 1,500 in 40 s)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const response = await register({
        client_name: `Bulk ${i}`,
        redirect_uris: ['https://bulk.example/cb'],
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(30);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
  });
});
