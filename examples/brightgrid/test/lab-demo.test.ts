import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, signInAtBrightgridId } from '@parley/testing';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, freshDataDir, Running } from './processes.js';

// What a person does with the demo, in the Parley lab in a real Chromium: book a return, connect
// the store account on the store's own page, and book a flight. Brightgrid runs as a real process.

const ARTIFACTS = fileURLToPath(new URL('../../../.artifacts/brightgrid/', import.meta.url));

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function dialog(page: Page): Locator {
  return page.getByRole('dialog');
}

async function callTool(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Call ${name}`, exact: true }).click();
  const form = page.locator('#call-panel form');
  await form.getByRole('heading', { name: `Call tool ${name}` }).waitFor();
  await form.getByRole('button', { name: 'Call tool' }).click();
}

async function question(page: Page, message: string | RegExp): Promise<Locator> {
  const box = dialog(page);
  await box.locator('.parley-message', { hasText: message }).waitFor();
  return box;
}

async function reviewAndAccept(box: Locator): Promise<void> {
  await box.getByRole('button', { name: 'Review answers' }).click();
  await box.getByRole('heading', { name: 'Check your answers' }).waitFor();
  await box.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** The newest finished call of a tool: its outcome text. */
async function outcomeOf(page: Page, name: string): Promise<string> {
  const card = page
    .locator('li.call')
    .filter({ has: page.getByRole('heading', { name: new RegExp(`^Tool ${name} on `) }) })
    .first();
  await card.locator('.outcome > *').first().waitFor();
  return (await card.locator('.outcome').textContent()) ?? '';
}

describe('the demo in the lab (what npm start runs)', () => {
  let demo: Running;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // dist/start.js is what `npm start` runs after building: Brightgrid over HTTP, the lab calling it
    // as alice (her token in every request), and the store's pages on Brightgrid's own origin.
    demo = new Running([join(DIST, 'start.js'), '--no-open'], {
      BRIGHTGRID_DATA: freshDataDir(),
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    });
    let labUrl: string;
    [labUrl, browser] = await Promise.all([
      demo.line(/^Lab: (\S+)$/).then((match) => match[1]!),
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    page = await context.newPage();
    await page.goto(labUrl);
    // The lab signs in to Brightgrid at Brightgrid ID, in a window of its own, as a person would.
    const [signIn] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /^Sign in at 127\.0\.0\.1:\d+$/ }).click(),
    ]);
    await signIn.waitForLoadState();
    await signInAtBrightgridId(signIn, signIn.url(), 'alice', 'wonderland');
    expect(await signIn.textContent('body')).toContain('Signed in. You can close this window');
    await signIn.close();
    await page.getByRole('heading', { name: 'Brightgrid store 0.1.0' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop('SIGINT');
  });

  it('books a return from the return form', async () => {
    await callTool(page, 'book_return');
    const box = await question(page, 'Book a return');
    expect(await box.getByLabel('Email for the courier label').inputValue()).toBe('alice@brightgrid.example');
    await box.getByLabel('Reason for the return').selectOption('Wrong item');
    await box.getByLabel('Boxes').fill('2');
    await box.getByLabel('Pickup date').fill(daysFromNow(3));
    await box.getByLabel('Gift-wrap the replacement').check();
    // docs/images/brightgrid-lab.png is a copy of this screenshot.
    await page.screenshot({ path: join(ARTIFACTS, 'lab-book-return.png') });
    await reviewAndAccept(box);
    expect(await outcomeOf(page, 'book_return')).toMatch(
      new RegExp(`Return #\\d+ booked \\(Wrong item\\): the courier collects 2 boxes on ${daysFromNow(3)}`),
    );
  });

  it('connects the store account on the store’s own page, then says it has finished', async () => {
    await callTool(page, 'connect_store_account');
    const box = dialog(page);
    await box.getByRole('heading', { name: /asks you to open a web page/ }).waitFor();
    const [store] = await Promise.all([
      page.context().waitForEvent('page'),
      box.getByRole('button', { name: 'Open' }).click(),
    ]);
    await store.waitForLoadState();
    // The store signs people in through Brightgrid ID, where this browser signed in for the lab
    // already: the same person (alice), straight to the connect page.
    await store.getByRole('heading', { name: 'Connect your store account' }).waitFor();
    expect(await store.textContent('main')).toContain('your Brightgrid account alice');
    await store.screenshot({ path: join(ARTIFACTS, 'lab-store-connect-page.png') });
    await store.getByRole('button', { name: 'Allow' }).click();
    await store.getByRole('heading', { name: 'Connected' }).waitFor();
    await store.close();

    const flow = page.getByRole('group', { name: 'Web page flow' });
    await flow.getByRole('button', { name: "I've finished" }).click();
    expect(await outcomeOf(page, 'connect_store_account')).toContain(
      'Connected your Brightgrid store account alice (Alice Liddell).',
    );
  });

  it('links the courier account: the key is typed on Brightgrid’s own page, which the lab opens like any URL', async () => {
    await callTool(page, 'link_courier_account');
    const box = dialog(page);
    await box.getByRole('heading', { name: /asks you to open a web page/ }).waitFor();
    expect(await box.textContent()).toContain("Paste your courier account's API key");
    const [questionPage] = await Promise.all([
      page.context().waitForEvent('page'),
      box.getByRole('button', { name: 'Open' }).click(),
    ]);
    await questionPage.waitForLoadState();
    // Signed in at Brightgrid ID for the lab already: the store knows this browser is alice's.
    const key = questionPage.getByLabel('Courier API key', { exact: true });
    await key.waitFor();
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill('ck_live_9f8e7d6c5b4a');
    await questionPage.getByRole('button', { name: 'Review answers' }).click();
    await questionPage.getByRole('button', { name: 'Accept', exact: true }).click();
    await questionPage.getByText(/reached Brightgrid/).waitFor();
    await questionPage.screenshot({ path: join(ARTIFACTS, 'lab-question-page-secret.png') });
    await questionPage.close();

    const flow = page.getByRole('group', { name: 'Web page flow' });
    await flow.getByRole('button', { name: "I've finished" }).click();
    const outcome = await outcomeOf(page, 'link_courier_account');
    expect(outcome).toContain('Courier account linked for Alice Liddell.');
    expect(await page.textContent('body')).not.toContain('ck_live_9f8e7d6c5b4a');
  });

  it('books a flight in three rounds', async () => {
    await callTool(page, 'book_flight');
    const where = await question(page, 'Where would you like to fly?');
    await where.getByLabel('Destination').selectOption({ label: 'Oslo (from €164)' });
    await reviewAndAccept(where);
    const when = await question(page, 'When do you want to fly to Oslo?');
    await when.getByLabel('Departure date').fill(daysFromNow(20));
    await reviewAndAccept(when);
    const confirm = await question(page, `Book Oslo (OSL) on ${daysFromNow(20)} for €164?`);
    // A yes/no, answered in one click.
    await confirm.getByRole('button', { name: 'Yes' }).click();
    expect(await outcomeOf(page, 'book_flight')).toMatch(
      new RegExp(`Flight #\\d+ booked: Oslo \\(OSL\\) on ${daysFromNow(20)}, €164\\.`),
    );
  });
});
