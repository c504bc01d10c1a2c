import { connect, type ElicitationUI } from '@parley/client';
import { oauthSession, SignInError } from '@parley/client/oauth';
import { InvalidTokenError, introspectionVerifier } from '@parley/server/oauth';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBrightgridHttp } from '../src/http.js';
import { type BrightgridProcess, freshDataDir, startBrightgridProcess } from './processes.js';
import { signInInBrowser, signInWithPassword } from './sign-in.js';

// Brightgrid protected by Brightgrid ID, a real OpenID Provider (oidc-provider) it starts on
// loopback: clients are challenged, sign in on its pages in a real Chromium, and get JWT access
// tokens for Brightgrid's endpoint only; the token's subject is the user URL flows are bound to,
// and the store's connect page signs the person in through the same provider.

let brightgrid: BrightgridProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  [brightgrid, browser] = await Promise.all([
    startBrightgridProcess(undefined, {}, { oauth: true }),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  if (brightgrid) expect((await brightgrid.process.stop()).code).toBe(0);
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.text ?? '';
}

/**
 * A host that consents to every URL and lets `visit` play the person in the browser. `visited()`
 * waits for every visit to end: a call can end before its browser part does.
 */
function urlHost(visit: (url: string) => Promise<'finished' | 'cancel'>): {
  ui: ElicitationUI;
  visited: () => Promise<unknown>;
} {
  const visits: Promise<unknown>[] = [];
  const ui: ElicitationUI = {
    modes: { form: true, url: true },
    async form() {
      throw new Error('no form expected');
    },
    async url() {
      return { action: 'accept' };
    },
    waitForUrl: (request) => {
      const visiting = visit(request.url);
      visits.push(visiting);
      return visiting;
    },
  };
  return { ui, visited: () => Promise.all(visits) };
}

function rpc(token?: string) {
  return fetch(brightgrid.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

it('challenges a request without a token, naming metadata that points to Brightgrid ID', async () => {
  const response = await rpc();
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(metadataUrl).toBe(`${brightgrid.origin}/.well-known/oauth-protected-resource/mcp`);
  expect(challenge).toContain('scope="store"');
  // It asks for DPoP-bound tokens beside bearer ones.
  expect(challenge).toMatch(/, DPoP resource_metadata="[^"]+", scope="store", algs="ES256 /);
  const metadata = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
  expect(metadata).toMatchObject({ resource: brightgrid.url, authorization_servers: [brightgrid.issuer] });
  const provider = (await (
    await fetch(`${brightgrid.issuer}/.well-known/openid-configuration`)
  ).json()) as Record<string, unknown>;
  expect(provider).toMatchObject({
    issuer: brightgrid.issuer,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
    grant_types_supported: expect.arrayContaining(['authorization_code', 'client_credentials']),
  });
});

describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
  it('alice signs in through Brightgrid ID in the browser, calls a tool that asks, and connects her store account on the page', async () => {
    const page = await newPage();
    const session = oauthSession({
      redirectUri: REDIRECT,
      clientName: `Parley e2e ${era}`,
      authorize: signInInBrowser(page, REDIRECT, 'alice', 'wonderland'),
    });
    const host = urlHost(async (url) => {
      // The browser is signed in at Brightgrid ID already: the store's sign-in passes straight through.
      await page.goto(url);
      await page.getByRole('heading', { name: 'Connect your store account' }).waitFor();
      expect(await page.textContent('main')).toContain('your Brightgrid account alice');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
      return 'finished';
    });
    const client = await connect(brightgrid.url, {
      era,
      fetch: session.fetch,
      clientInfo: { name: 'Brightgrid e2e host', version: '1.0.0' },
      ui: host.ui,
    });
    try {
      const result = await client.callTool('connect_store_account');
      expect(text(result)).toBe('Connected your Brightgrid store account alice (Alice Liddell).');
      await host.visited();
    } finally {
      await client.close();
    }
  });

  it('a browser signed in as bob at Brightgrid ID cannot open alice’s connect page', async () => {
    const bobPage = await newPage();
    await bobPage.goto(`${brightgrid.origin}/signin`);
    await bobPage.getByLabel('User name').fill('bob');
    await bobPage.getByLabel('Password').fill('bricklayer');
    await bobPage.getByRole('button', { name: 'Sign in' }).click();
    await bobPage.getByRole('heading', { name: 'Hello, Bob Okafor' }).waitFor();

    let status: number | undefined;
    const session = oauthSession({
      redirectUri: REDIRECT,
      authorize: signInWithPassword('alice', 'wonderland'),
    });
    const host = urlHost(async (url) => {
      status = (await bobPage.goto(url))?.status();
      expect(await bobPage.textContent('body')).toContain('This link is for another account');
      return 'cancel';
    });
    const client = await connect(brightgrid.url, { era, fetch: session.fetch, ui: host.ui });
    try {
      await client.callTool('connect_store_account').catch(() => undefined);
    } finally {
      await client.close();
    }
    await host.visited();
    expect(status).toBe(403);
  });
});

describe('tokens', () => {
  async function aliceToken(): Promise<string> {
    return tokenFor('alice', 'wonderland');
  }

  // The raw requests below carry bearer tokens: these sessions never bind their tokens to a key
  // (Brightgrid asks for DPoP but still accepts bearer tokens; DPoP is headless-agent.test.ts's).
  async function tokenFor(user: string, password: string): Promise<string> {
    const store = new Map<string, unknown>();
    const session = oauthSession({
      redirectUri: REDIRECT,
      authorize: signInWithPassword(user, password),
      dpop: 'never',
      store: {
        load: async (key) => store.get(key) as never,
        save: async (record) => void store.set(record.server, record),
        delete: async (key) => void store.delete(key),
      },
    });
    await session.signIn(brightgrid.url);
    return (store.get(brightgrid.url) as { tokens: { accessToken: string } }).tokens.accessToken;
  }

  it('are JWTs for Brightgrid’s endpoint whose subject is the user', async () => {
    const token = await aliceToken();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      sub: 'alice',
      aud: brightgrid.url,
      iss: brightgrid.issuer,
      scope: 'store',
    });
    expect((await rpc(token)).status).not.toBe(401);
    expect((await rpc('not-a-token-anyone-issued.x.y')).status).toBe(401);
  });

  /** One raw 2026-07-28 tools/call round with a bearer token. */
  async function modernRound(token: string, retry: Record<string, unknown> = {}) {
    const response = await fetch(brightgrid.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'connect_store_account',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          },
          name: 'connect_store_account',
          arguments: {},
          ...retry,
        },
      }),
    });
    return (await response.json()) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
  }

  it('bob’s token cannot answer alice’s URL flow', async () => {
    const [alice, bob] = await Promise.all([aliceToken(), tokenFor('bob', 'bricklayer')]);
    const first = await modernRound(alice);
    const requests = first.result?.inputRequests as Record<string, unknown>;
    const [key] = Object.keys(requests);
    const retry = {
      requestState: first.result?.requestState,
      inputResponses: { [key!]: { action: 'accept' } },
    };
    // The state is sealed for alice (the token's subject): bob's retry is refused outright.
    expect(await modernRound(bob, retry)).toMatchObject({
      error: { code: -32602, data: { reason: 'invalid_request_state' } },
    });
    // The same retry with alice's token is hers: the flow is still open, so she is asked again.
    const own = await modernRound(alice, retry);
    expect(own.error).toBeUndefined();
    expect(own.result?.inputRequests).toBeDefined();
  });

  it('a tampered token is refused with invalid_token', async () => {
    const [header, payload, signature] = (await aliceToken()).split('.');
    const forged = Buffer.from(payload!, 'base64url').toString().replace('"alice"', '"bob"');
    const response = await rpc(`${header}.${Buffer.from(forged).toString('base64url')}.${signature}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a person who denies on the consent page is not signed in', async () => {
    const session = oauthSession({
      redirectUri: REDIRECT,
      authorize: signInWithPassword('alice', 'wonderland', { consent: 'deny' }),
    });
    await expect(session.signIn(brightgrid.url)).rejects.toThrow(SignInError);
    await expect(session.signIn(brightgrid.url)).rejects.toThrow(/access_denied|did not allow/);
  });

  it('a wrong password never reaches consent', async () => {
    const pages: string[] = [];
    const session = oauthSession({
      redirectUri: REDIRECT,
      authorize: signInWithPassword('alice', 'not-her-password', { pages }),
    });
    await expect(session.signIn(brightgrid.url)).rejects.toThrow();
    expect(pages.some((page) => page.includes('Wrong user name or password.'))).toBe(true);
  });
});

describe('introspection (RFC 7662) at Brightgrid ID', () => {
  it('says whose opaque token it is, and refuses one it did not issue or for another server', async () => {
    const running = await startBrightgridHttp({
      authServer: { accessTokens: 'opaque' },
      dataDir: freshDataDir(),
    });
    try {
      const { issuer, introspection } = running.identity!;
      const verify = introspectionVerifier({ issuer, ...introspection });
      let token = '';
      const capture = oauthSession({
        redirectUri: REDIRECT,
        authorize: signInWithPassword('bob', 'bricklayer'),
        fetch: async (input, init) => {
          const auth = new Headers(init?.headers).get('authorization');
          const sent = /^(?:Bearer|DPoP) (.+)$/.exec(auth ?? '')?.[1];
          if (sent !== undefined) token = sent;
          return fetch(input, init);
        },
      });
      await capture.fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      // Brightgrid itself introspected the token: the ping went through.
      expect(token).not.toContain('.');
      const info = await verify(token, { resource: running.url });
      expect(info.extra).toMatchObject({ sub: 'bob', iss: issuer });
      expect(info.scopes).toContain('store');
      await expect(verify('not-a-token-anyone-issued', { resource: running.url })).rejects.toThrow(
        InvalidTokenError,
      );
      await expect(verify(token, { resource: 'http://127.0.0.1:1/other' })).rejects.toThrow(
        /not for this server/,
      );
    } finally {
      await running.close();
    }
  });
});

describe('an expired access token from Brightgrid ID', () => {
  it('is refused with invalid_token, naming the expiry', async () => {
    const running = await startBrightgridHttp({ authServer: { accessTokenTtl: 1 }, dataDir: freshDataDir() });
    try {
      let token = '';
      const session = oauthSession({
        redirectUri: REDIRECT,
        authorize: signInWithPassword('alice', 'wonderland'),
        fetch: async (input, init) => {
          const auth = new Headers(init?.headers).get('authorization');
          const sent = /^(?:Bearer|DPoP) (.+)$/.exec(auth ?? '')?.[1];
          if (sent !== undefined) token = sent;
          return fetch(input, init);
        },
      });
      await session.fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      // Past its one second and the verifier's five seconds of clock tolerance.
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, claims.exp * 1000 + 6_500 - Date.now())),
      );
      const response = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain('The access token has expired');
    } finally {
      await running.close();
    }
  });
});
