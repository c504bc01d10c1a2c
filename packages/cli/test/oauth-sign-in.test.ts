import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrightgridWithId,
  CHROMIUM_ARGS,
  SETTLE_TIMEOUT_MS,
  signInAtBrightgridId,
  startBrightgridWithId,
} from '@parley/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runParley } from './run-parley.js';
import { Terminal } from './tmux.js';

// `parley` signs in to an OAuth-protected server the way a native app does: the system browser
// (here $BROWSER, a script that notes the address; a real Chromium then plays the person), a
// loopback redirect on a free port, tokens kept per server in a 0600 file, and `parley logout`.
// The server is Brightgrid with Brightgrid ID, the demo's real authorization server (oidc-provider).

let brightgrid: BrightgridWithId;
let browser: Browser;
let dir: string;
let opened: string;
let browserScript: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-oauth-'));
  opened = join(dir, 'opened.txt');
  browserScript = join(dir, 'browser.sh');
  await writeFile(browserScript, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${opened}"\n`);
  await chmod(browserScript, 0o755);
  [brightgrid, browser] = await Promise.all([
    startBrightgridWithId(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await brightgrid?.stop();
});

/** The addresses the "system browser" was asked to open so far. */
async function openedUrls(): Promise<string[]> {
  return (await readFile(opened, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
}

async function nextOpened(seen: number): Promise<string> {
  await expect
    .poll(async () => (await openedUrls()).length, { timeout: SETTLE_TIMEOUT_MS })
    .toBeGreaterThan(seen);
  return (await openedUrls())[seen]!;
}

describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
  it('signs in through the browser, calls a tool that asks, and completes its URL flow as alice', async () => {
    const config = await mkdtemp(join(dir, 'config-'));
    const context = await browser.newContext();
    const page = await context.newPage();
    const stdoutFile = join(dir, `out-${era}.txt`);
    const terminal = await Terminal.start(
      [
        process.execPath,
        BIN,
        'call',
        brightgrid.url,
        'connect_store_account',
        '--era',
        era === 'modern' ? 'auto' : 'handshake',
      ],
      { env: { BROWSER: browserScript, XDG_CONFIG_HOME: config }, stdoutFile },
    );
    try {
      const seen = (await openedUrls()).length;
      const signIn = await nextOpened(seen);
      expect(new URL(signIn).origin).toBe(brightgrid.issuer);
      expect(await terminal.screen()).toContain(
        `parley: sign in to ${brightgrid.issuer} in your browser: ${signIn}`,
      );
      await signInAtBrightgridId(page, signIn, 'alice', 'wonderland');
      // The browser came back to parley's own loopback listener.
      expect(new URL(page.url()).hostname).toBe('127.0.0.1');
      await page.getByRole('heading', { name: 'Signed in' }).waitFor();

      await terminal.waitFor('◆  Open this page in your browser?');
      await terminal.press('Enter');
      const connectPage = await nextOpened(seen + 1);
      // Signed in at Brightgrid ID already: the store's own sign-in passes straight through.
      await page.goto(connectPage);
      await page.getByRole('heading', { name: 'Connect your store account' }).waitFor();
      expect(await page.textContent('main')).toContain('your Brightgrid account alice');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
      if (era === 'modern') {
        await terminal.waitFor('◆  Finish in the browser, then:');
        await terminal.press('Enter');
      }
      expect(await terminal.exitCode()).toBe(0);
      expect(await readFile(stdoutFile, 'utf8')).toBe(
        'Connected your Brightgrid store account alice (Alice Liddell).\n',
      );
    } finally {
      await terminal.close();
      await context.close();
    }

    // The sign-in is kept in a file only the user can read, and reused without the browser.
    const tokens = join(config, 'parley', 'tokens.json');
    expect((await stat(tokens)).mode & 0o777).toBe(0o600);
    expect((await stat(join(config, 'parley'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(tokens, 'utf8')).servers[brightgrid.url]).toMatchObject({
      issuer: brightgrid.issuer,
      tokens: { refreshToken: expect.any(String) },
    });
    const before = (await openedUrls()).length;
    const again = await runParley(['tools', brightgrid.url, '--no-open'], {
      XDG_CONFIG_HOME: config,
      BROWSER: browserScript,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('connect_store_account');
    expect(again.stderr).not.toContain('sign in');
    expect((await openedUrls()).length).toBe(before);

    // An expired access token is refreshed with the refresh token, still without the browser.
    const file = JSON.parse(await readFile(tokens, 'utf8'));
    const expired = file.servers[brightgrid.url].tokens.accessToken;
    file.servers[brightgrid.url].tokens.expiresAt = Date.now() - 1000;
    await writeFile(tokens, JSON.stringify(file));
    const refreshed = await runParley(['tools', brightgrid.url, '--no-open'], {
      XDG_CONFIG_HOME: config,
      BROWSER: browserScript,
    });
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).not.toContain('sign in');
    const after = JSON.parse(await readFile(tokens, 'utf8')).servers[brightgrid.url].tokens;
    expect(after.accessToken).not.toBe(expired);
    expect(after.expiresAt).toBeGreaterThan(Date.now());
    expect((await stat(tokens)).mode & 0o777).toBe(0o600);

    // parley logout forgets it; the next command asks to sign in again.
    const out = await runParley(['logout', brightgrid.url], { XDG_CONFIG_HOME: config });
    expect(out).toMatchObject({ code: 0 });
    expect(out.stderr).toBe(`parley: signed out of ${brightgrid.url}\n`);
    expect(JSON.parse(await readFile(tokens, 'utf8')).servers[brightgrid.url]).toBeUndefined();
    expect((await runParley(['logout', brightgrid.url], { XDG_CONFIG_HOME: config })).stderr).toBe(
      `parley: not signed in to ${brightgrid.url}\n`,
    );
  });
});

it('with --no-open prints the sign-in address for a browser elsewhere, and waits for it', async () => {
  const config = await mkdtemp(join(dir, 'config-'));
  const child = spawn(process.execPath, [BIN, 'tools', brightgrid.url, '--no-open'], {
    env: { ...process.env, XDG_CONFIG_HOME: config, BROWSER: browserScript },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // 'close', not 'exit': its output may still be on its way when the process has exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const before = (await openedUrls()).length;
  await expect
    .poll(() => /in your browser: (\S+)/.exec(stderr)?.[1], { timeout: SETTLE_TIMEOUT_MS })
    .toBeDefined();
  const address = /in your browser: (\S+)/.exec(stderr)![1]!;
  const context = await browser.newContext();
  try {
    await signInAtBrightgridId(await context.newPage(), address, 'bob', 'bricklayer');
  } finally {
    await context.close();
  }
  expect(await exited).toBe(0);
  expect(stdout).toContain('book_return');
  expect((await openedUrls()).length).toBe(before);
  const record = JSON.parse(await readFile(join(config, 'parley', 'tokens.json'), 'utf8')).servers[
    brightgrid.url
  ];
  const claims = JSON.parse(Buffer.from(record.tokens.accessToken.split('.')[1], 'base64url').toString());
  expect(claims).toMatchObject({ sub: 'bob', aud: brightgrid.url });
});

// Issue 24, suspected item: anything on the machine, a page in the person's browser included, can
// request parley's loopback callback. Before, the first request there was taken as the answer, and
// the sign-in in progress failed on its state.
it('ignores a forged request to its loopback callback and finishes the sign-in in progress', async () => {
  const config = await mkdtemp(join(dir, 'config-'));
  const child = spawn(process.execPath, [BIN, 'tools', brightgrid.url, '--no-open'], {
    env: { ...process.env, XDG_CONFIG_HOME: config, BROWSER: browserScript },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await expect
    .poll(() => /in your browser: (\S+)/.exec(stderr)?.[1], { timeout: SETTLE_TIMEOUT_MS })
    .toBeDefined();
  const address = new URL(/in your browser: (\S+)/.exec(stderr)![1]!);
  const callback = address.searchParams.get('redirect_uri')!;
  expect(new URL(callback).hostname).toBe('127.0.0.1');
  const forged: number[] = [];
  for (const url of [`${callback}?error=access_denied&state=forged`, `${callback}?error=access_denied`]) {
    forged.push((await fetch(url)).status);
  }
  const context = await browser.newContext();
  try {
    await signInAtBrightgridId(await context.newPage(), address.href, 'bob', 'bricklayer');
  } catch {
    // Before the fix parley had given up and closed its listener: the browser had nowhere to go.
  } finally {
    await context.close();
  }
  expect({ code: await exited, stderr }).toMatchObject({ code: 0 });
  expect(stdout).toContain('book_return');
  expect(forged).toEqual([400, 400]);
});

describe('bad metadata: nobody is signed in and nothing is written', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A server whose protected resource metadata claims to be another server (a token for that one
    // is what it would obtain), and one whose metadata names an issuer that serves another's.
    server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url?.startsWith('/.well-known/oauth-protected-resource')) {
        const elsewhere = req.url.endsWith('/wrong-issuer')
          ? `${origin}/wrong-issuer`
          : 'http://127.0.0.1:1/mcp';
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: elsewhere, authorization_servers: [`${origin}/as`] }));
        return;
      }
      if (
        req.url === '/.well-known/oauth-authorization-server/as' ||
        req.url === '/as/.well-known/openid-configuration'
      ) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            issuer: brightgrid.issuer,
            authorization_endpoint: `${brightgrid.issuer}/auth`,
            token_endpoint: `${brightgrid.issuer}/token`,
            code_challenge_methods_supported: ['S256'],
          }),
        );
        return;
      }
      const path = new URL(req.url ?? '/', origin).pathname;
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"`,
        })
        .end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['metadata for another server', '/mcp', /is for http:\/\/127\.0\.0\.1:1\/mcp, not for this server/],
    ['an authorization server that answers for another issuer', '/wrong-issuer', /not valid for issuer/],
  ])('refuses %s', async (_name, path, message) => {
    const config = await mkdtemp(join(dir, 'config-'));
    const before = (await openedUrls()).length;
    const run = await runParley(['tools', `${url}${path}`], {
      XDG_CONFIG_HOME: config,
      BROWSER: browserScript,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect((await openedUrls()).length).toBe(before);
    await expect(stat(join(config, 'parley', 'tokens.json'))).rejects.toThrow(/ENOENT/);
  });
});
