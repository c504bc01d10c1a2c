import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type ElicitationUI, ParleyError } from '@parley/client';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, startBrightgridProcess } from './processes.js';

// connect_store_account end to end: a real Brightgrid process, the Parley client, and a real
// Chromium that plays the person's browser on the store's own sign-in and connect pages.

const ARTIFACTS = fileURLToPath(new URL('../../../.artifacts/brightgrid/', import.meta.url));

let brightgrid: BrightgridProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [brightgrid, browser] = await Promise.all([
    startBrightgridProcess(),
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

/** A fresh browser profile (no store cookies yet). */
async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A host whose person consents to every URL and then does `visit` in the browser before saying
 * they have finished (or cancelling, when `visit` says so).
 */
/**
 * A host that opens each URL question's page with `visit`. `visited()` waits for every visit to end:
 * the call can end before the browser is done (the server learns the outcome from the page's POST,
 * while the browser still follows that POST's redirect), and the page must not be driven elsewhere
 * meanwhile.
 */
function browserHost(visit: (url: string) => Promise<'finished' | 'cancel'>) {
  const urls: string[] = [];
  const visits: Promise<unknown>[] = [];
  const ui: ElicitationUI = {
    modes: { form: true, url: true },
    async form() {
      throw new Error('connect_store_account asks no form');
    },
    async url(request, inspection) {
      urls.push(request.url);
      expect(inspection.allowed).toBe(true);
      return { action: 'accept' };
    },
    waitForUrl: (request) => {
      const visiting = visit(request.url);
      visits.push(visiting);
      return visiting;
    },
  };
  return { ui, urls, visited: () => Promise.all(visits) };
}

function text(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.text ?? '';
}

async function callConnect(era: 'modern' | 'handshake', ui: ElicitationUI, user: 'alice' | 'bob' = 'alice') {
  const client = await connect(brightgrid.url, {
    ui,
    era,
    clientInfo: { name: 'Brightgrid e2e host', version: '1.0.0' },
    headers: { authorization: `Bearer ${brightgrid.tokens[user]}` },
  });
  try {
    return await client.callTool('connect_store_account');
  } finally {
    await client.close();
  }
}

describe.each(['modern', 'handshake'] as const)('connect_store_account, %s era', (era) => {
  it('sends the person to the store’s own sign-in, then its connect page, and learns only the outcome', async () => {
    const page = await newPage();
    const host = browserHost(async (url) => {
      await page.goto(url);
      // Nobody is signed in to the store in this browser yet: the kit sends it to the store's sign-in.
      expect(new URL(page.url()).pathname).toBe('/signin');
      await signIn(page, 'alice', 'wonderland');
      await expect.poll(() => new URL(page.url()).pathname).toBe(new URL(url).pathname);
      await page.getByRole('heading', { name: 'Connect your store account' }).waitFor();
      expect(await page.textContent('main')).toContain(
        'Brightgrid e2e host asks to use your Brightgrid account alice',
      );
      await page.screenshot({ path: join(ARTIFACTS, `connect-page-${era}.png`) });
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
      return 'finished';
    });

    const result = await callConnect(era, host.ui);
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Connected your Brightgrid store account alice (Alice Liddell).');
    const url = new URL(host.urls[0]!);
    expect(url.origin).toBe(brightgrid.origin);
    expect(url.pathname).toMatch(/^\/connect\/[\w-]{43}$/);
    expect(url.search).toBe('');

    // A link works once.
    await host.visited();
    const again = await page.goto(host.urls[0]!);
    expect(again?.status()).toBe(410);
    // The store's front page shows the link.
    await page.goto(brightgrid.origin);
    expect(await page.textContent('main')).toContain('Connected to Brightgrid e2e host');
  });

  it('reports Deny on the store page as not connected', async () => {
    const page = await newPage();
    const host = browserHost(async (url) => {
      await page.goto(url);
      await signIn(page, 'alice', 'wonderland');
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByRole('heading', { name: 'Not connected' }).waitFor();
      return 'finished';
    });
    expect(text(await callConnect(era, host.ui))).toBe(
      'Store account not connected: you chose Deny on the store page.',
    );
    await host.visited();
  });

  it('refuses the page to a browser signed in as another user, so a forwarded link is useless', async () => {
    const page = await newPage();
    await page.goto(`${brightgrid.origin}/signin`);
    await signIn(page, 'bob', 'bricklayer');
    let status: number | undefined;
    const host = browserHost(async (url) => {
      const response = await page.goto(url);
      status = response?.status();
      expect(await page.textContent('body')).toContain('This link is for another account');
      return 'cancel';
    });
    const outcome = await callConnect(era, host.ui, 'alice').then(
      (result) => text(result),
      (error: unknown) => error,
    );
    await host.visited();
    expect(status).toBe(403);
    if (era === 'modern') {
      expect(outcome).toBe('Store account not connected: cancelled.');
    } else {
      // On the handshake era the server already has the consent; cancelling stops the call.
      expect(outcome).toBeInstanceOf(ParleyError);
      expect((outcome as ParleyError).kind).toBe('cancelled');
    }
  });
});
