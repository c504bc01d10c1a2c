import { startLab } from '@parley/lab';
import {
  type BrightgridWithId,
  CHROMIUM_ARGS,
  signInAtBrightgridId,
  startBrightgridWithId,
} from '@parley/testing';
import { runAxe } from '@parley/testing/axe';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, dialog, resultOf } from './helpers/lab-page.js';

// The lab signs in to an OAuth-protected server in its own page, as a person would: the server
// panel offers the authorization server's page in a new window, the person signs in there, and
// the window comes back to the lab's own callback. The server is Brightgrid with Brightgrid ID,
// the demo's real authorization server (oidc-provider); the URL flow is then completed for the
// same person, and bob's browser cannot open alice's page.

let brightgrid: BrightgridWithId;
let browser: Browser;

beforeAll(async () => {
  [brightgrid, browser] = await Promise.all([
    startBrightgridWithId(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await brightgrid?.stop();
});

async function signInFromLab(page: Page, user: string, password: string): Promise<void> {
  const link = page.getByRole('link', { name: `Sign in at ${new URL(brightgrid.issuer).host}` });
  const [window] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await window.waitForLoadState();
  await signInAtBrightgridId(window, window.url(), user, password);
  expect(new URL(window.url()).origin).toBe(new URL(page.url()).origin);
  expect(await window.textContent('body')).toBe(
    'Signed in. You can close this window and go back to the lab.',
  );
  await window.close();
}

describe.each(['modern', 'handshake'] as const)('%s era', (era) => {
  it('signs in at Brightgrid ID, calls a tool that asks, and completes its URL flow as alice; bob cannot open it', async () => {
    const lab = await startLab({ targets: [brightgrid.url], era });
    const context = await browser.newContext();
    const bobContext = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(lab.url);
      await page.locator('.server-status', { hasText: 'sign-in needed' }).waitFor();
      // Nothing about the server is shown before the person signs in.
      expect(await page.getByRole('button', { name: 'Call connect_store_account' }).count()).toBe(0);
      const prompt = page.getByRole('region', { name: 'Sign-in needed' });
      expect(await prompt.textContent()).toContain(
        `This server asks you to sign in at ${new URL(brightgrid.issuer).host}.`,
      );
      expect(await runAxe(page, prompt)).toEqual([]);
      await signInFromLab(page, 'alice', 'wonderland');
      await page.getByRole('heading', { name: 'Brightgrid store 0.1.0' }).waitFor();

      // Bob, signed in at Brightgrid ID in his own browser, is refused alice's connect page.
      const bobPage = await bobContext.newPage();
      const storeOrigin = new URL(brightgrid.url).origin;
      await bobPage.goto(`${storeOrigin}/signin`);
      await signInAtBrightgridId(bobPage, bobPage.url(), 'bob', 'bricklayer');
      await bobPage.getByRole('heading', { name: 'Hello, Bob Okafor' }).waitFor();

      await callTool(page, 'connect_store_account');
      const box = dialog(page);
      await box.getByRole('heading', { name: /asks you to open a web page/ }).waitFor();
      const connectUrl = (await box.locator('.url-full').textContent()) ?? '';
      const refused = await bobPage.goto(connectUrl);
      expect(refused?.status()).toBe(403);
      expect(await bobPage.textContent('body')).toContain('This link is for another account');

      const [store] = await Promise.all([
        context.waitForEvent('page'),
        box.getByRole('button', { name: 'Open' }).click(),
      ]);
      // This browser signed in at Brightgrid ID for the lab: the store knows it is alice at once.
      await store.getByRole('heading', { name: 'Connect your store account' }).waitFor();
      expect(await store.textContent('main')).toContain('your Brightgrid account alice');
      await store.getByRole('button', { name: 'Allow' }).click();
      await store.getByRole('heading', { name: 'Connected' }).waitFor();
      await store.close();
      if (era === 'modern') {
        await page
          .getByRole('group', { name: 'Web page flow' })
          .getByRole('button', { name: "I've finished" })
          .click();
      }
      expect(await resultOf(page, 'connect_store_account')).toContain(
        'Connected your Brightgrid store account alice (Alice Liddell).',
      );
    } finally {
      await context.close();
      await bobContext.close();
      await lab.close();
    }
  });
});

it('a sign-in callback the lab is not waiting for is refused and signs nobody in', async () => {
  const lab = await startLab({});
  try {
    const origin = new URL(lab.url).origin;
    const response = await fetch(
      `${origin}/oauth/callback?code=stolen&state=guessed&iss=${encodeURIComponent(brightgrid.issuer)}`,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('not one the lab is waiting for');
  } finally {
    await lab.close();
  }
});
