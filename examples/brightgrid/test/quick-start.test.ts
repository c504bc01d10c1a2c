import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from '@parley/testing';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, freshDataDir, Running } from './processes.js';

// The README's Quick start, walked as a person walks it: `npm start`, the lab opened in Chromium
// well after the start, every Brightgrid tool in the README's order with the README's arguments,
// pressing the buttons the README names. The steps come from the README itself: a step the README
// adds, drops or reorders, an argument it changes or a button it renames fails this test.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ARTIFACTS = join(ROOT, '.artifacts/brightgrid/');
mkdirSync(ARTIFACTS, { recursive: true });

/** One numbered step of the README's Quick start walk. */
interface Step {
  /** What it does: a tool's name, or "Sign in". */
  readonly name: string;
  /** The arguments it gives the tool: `name` *value* pairs. */
  readonly args: Readonly<Record<string, string>>;
  /** Everything it sets in bold: the buttons to press and the fields to fill. */
  readonly bold: readonly string[];
  readonly text: string;
}

/** The README's Quick start section. */
function quickStart(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
}

/** The numbered steps of the walk, as the README writes them. */
function readmeSteps(): Step[] {
  const items = quickStart()
    .split(/\n(?=\d+\. \*\*)/)
    .slice(1);
  return items.map((item) => {
    const text = item.split(/\n\n/)[0]!.replace(/\s*\n\s*/g, ' ');
    return {
      name: /^\d+\. \*\*([^*]+)\*\*/.exec(text)![1]!,
      args: Object.fromEntries([...text.matchAll(/`(\w+)` \*([^*]+)\*/g)].map((m) => [m[1]!, m[2]!])),
      bold: [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!),
      text,
    };
  });
}

const STEPS = readmeSteps();
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** What the person presses or fills in each step: each must be in bold in the README's step. */
function pressed(step: Step, ...names: string[]): void {
  for (const name of names) expect(step.bold, `step "${step.name}" names **${name}**`).toContain(name);
}

function dialog(page: Page): Locator {
  return page.getByRole('dialog');
}

async function question(page: Page, message: string | RegExp): Promise<Locator> {
  await dialog(page).locator('.parley-message', { hasText: message }).waitFor();
  return dialog(page);
}

/** Opens a tool's call form, fills its arguments, and calls it. */
async function callTool(page: Page, step: Step, fill: (form: Locator) => Promise<unknown> = async () => {}) {
  await page.getByRole('button', { name: `Call ${step.name}`, exact: true }).click();
  const form = page.locator('#call-panel form');
  await form.getByRole('heading', { name: `Call tool ${step.name}` }).waitFor();
  await fill(form);
  await form.getByRole('button', { name: 'Call tool' }).click();
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

async function reviewAndAccept(box: Locator): Promise<void> {
  await box.getByRole('button', { name: 'Review answers' }).click();
  await box.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** Opens the page a URL question points to, in a new window of the same browser. */
async function openPage(page: Page): Promise<Page> {
  const box = dialog(page);
  await box.getByRole('heading', { name: /asks you to open a web page/ }).waitFor();
  const [opened] = await Promise.all([
    page.context().waitForEvent('page'),
    box.getByRole('button', { name: 'Open' }).click(),
  ]);
  await opened.waitForLoadState();
  return opened;
}

async function saysFinished(page: Page): Promise<void> {
  await page
    .getByRole('group', { name: 'Web page flow' })
    .getByRole('button', { name: "I've finished" })
    .click();
}

/** The walk's steps, by name: what the person does in each. */
const WALK: Record<string, (page: Page, step: Step) => Promise<void>> = {
  async 'Sign in'(page, step) {
    pressed(step, 'Sign in at 127.0.0.1:…', 'Allow', 'Retry');
    const signInAt = async () => {
      const [window] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: /^Sign in at 127\.0\.0\.1:\d+$/ }).click(),
      ]);
      await window.waitForLoadState();
      return window;
    };
    // The person first changes their mind at Brightgrid ID, then presses Retry and allows.
    const first = await signInAt();
    await first.getByLabel('User name').fill(step.text.match(/as `(\w+)` \/ `(\w+)`/)![1]!);
    await first.getByLabel('Password').fill(step.text.match(/as `(\w+)` \/ `(\w+)`/)![2]!);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('button', { name: 'Deny' }).click();
    await first.close();
    const failed = page.getByRole('alert').filter({ hasText: 'did not finish' });
    expect(await failed.textContent()).toMatch(
      /^Signing in to http:\/\/127\.0\.0\.1:\d+ did not finish: .*access_denied.*The server itself answered; press Retry to sign in again\.$/,
    );
    await page.getByRole('button', { name: 'Retry' }).click();

    const second = await signInAt();
    // Signed in already: the consent page. The demo's own lab is no stranger to Brightgrid ID.
    await second.getByRole('button', { name: 'Allow' }).waitFor();
    const consent = (await second.textContent('body')) ?? '';
    expect(consent).toContain('Allow Parley lab (started by npm start)?');
    expect(consent).not.toContain('Unverified app');
    await second.screenshot({ path: join(ARTIFACTS, 'quick-start-consent.png') });
    await second.getByRole('button', { name: 'Allow' }).click();
    await second.getByText('Signed in. You can close this window').waitFor();
    await second.close();
    await page.getByRole('heading', { name: 'Brightgrid store 0.1.0' }).waitFor();
  },

  async book_return(page, step) {
    pressed(step, 'Boxes', 'Pickup date', 'Review answers', 'Accept');
    expect(step.args).toEqual({ reason: 'Wrong item' });
    await callTool(page, step, (form) =>
      form.getByLabel('Reason for the return').selectOption(step.args.reason!),
    );
    const box = await question(page, 'Book a return');
    // Only what the call left out is asked; the reason it gave is filled in.
    expect(await box.getByLabel('Reason for the return').inputValue()).toBe(step.args.reason);
    expect(await box.getByLabel('Boxes').inputValue()).toBe('');
    await box.getByLabel('Boxes').fill('2');
    // docs/images/brightgrid-lab.png is a copy of this screenshot.
    await page.screenshot({ path: join(ARTIFACTS, 'lab-book-return.png') });
    await box.getByLabel('Pickup date').fill(daysFromNow(3));
    await reviewAndAccept(box);
    expect(await outcomeOf(page, 'book_return')).toMatch(
      new RegExp(`Return #\\d+ booked \\(Wrong item\\): the courier collects 2 boxes on ${daysFromNow(3)}`),
    );
  },

  async connect_store_account(page, step) {
    pressed(step, 'Open', 'Allow', "I've finished");
    await callTool(page, step);
    const store = await openPage(page);
    // The store signs people in through Brightgrid ID, where this browser signed in for the lab.
    await store.getByRole('heading', { name: 'Connect your store account' }).waitFor();
    expect(await store.textContent('main')).toContain('your Brightgrid account alice');
    await store.screenshot({ path: join(ARTIFACTS, 'lab-store-connect-page.png') });
    await store.getByRole('button', { name: 'Allow' }).click();
    await store.getByRole('heading', { name: 'Connected' }).waitFor();
    await store.close();
    await saysFinished(page);
    expect(await outcomeOf(page, 'connect_store_account')).toContain(
      'Connected your Brightgrid store account alice (Alice Liddell).',
    );
  },

  async book_flight(page, step) {
    pressed(step, 'Destination', 'Departure date', 'Review answers', 'Accept', 'Yes');
    await callTool(page, step);
    const where = await question(page, 'Where would you like to fly?');
    await where.getByLabel('Destination').selectOption({ label: 'Oslo (from €164)' });
    await reviewAndAccept(where);
    const when = await question(page, 'When do you want to fly to Oslo?');
    await when.getByLabel('Departure date').fill(daysFromNow(20));
    await reviewAndAccept(when);
    const confirm = await question(page, `Book Oslo (OSL) on ${daysFromNow(20)} for €164?`);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    expect(await outcomeOf(page, 'book_flight')).toMatch(
      new RegExp(`Flight #\\d+ booked: Oslo \\(OSL\\) on ${daysFromNow(20)}, €164\\.`),
    );
    // "Three questions, one per round ... the timeline shows four rounds".
    expect(step.text).toContain('three questions, one per round');
    expect(step.text).toContain('four rounds');
    const rounds = await page
      .locator('li.call')
      .filter({ has: page.getByRole('heading', { name: /^Tool book_flight on / }) })
      .first()
      .locator('.timeline .round')
      .allTextContents();
    expect([...new Set(rounds)]).toEqual(['Round 1', 'Round 2', 'Round 3', 'Round 4']);
  },

  async deploy(page, step) {
    pressed(step, 'Deployment window', 'Review answers', 'Accept');
    expect(step.args).toEqual({ service: 'storefront', version: '1.4.2' });
    await callTool(page, step, async (form) => {
      await form.getByLabel('service').selectOption(step.args.service!);
      await form.getByLabel('version').fill(step.args.version!);
    });
    const box = await question(page, `Deploy ${step.args.service} ${step.args.version}?`);
    await box.getByLabel('Deployment window').fill(`${daysFromNow(7)}T09:00`);
    await reviewAndAccept(box);
    expect(await outcomeOf(page, 'deploy')).toMatch(
      new RegExp(`^Deployment #\\d+ scheduled: storefront 1\\.4\\.2 to staging at ${daysFromNow(7)}T09:00`),
    );
  },

  async select_tags(page, step) {
    pressed(step, 'Eco-friendly', 'Review answers', 'Accept');
    expect(step.args).toEqual({ sku: 'BG-300' });
    await callTool(page, step, (form) => form.getByLabel('sku').fill(step.args.sku!));
    const box = await question(page, 'Which tags fit the Smart plug (BG-300)?');
    await box.getByRole('checkbox', { name: 'Eco-friendly' }).check();
    await reviewAndAccept(box);
    expect(await outcomeOf(page, 'select_tags')).toContain(
      'Smart plug (BG-300) is now tagged: Eco-friendly.',
    );
  },

  async link_courier_account(page, step) {
    pressed(step, 'Open', 'Courier API key', 'Review answers', 'Accept', "I've finished");
    await callTool(page, step);
    expect(await dialog(page).textContent()).toContain("Paste your courier account's API key");
    const questionPage = await openPage(page);
    const key = questionPage.getByLabel('Courier API key', { exact: true });
    await key.fill('ck_live_9f8e7d6c5b4a');
    expect(await key.getAttribute('type')).toBe('password');
    await reviewAndAccept(questionPage.locator('main'));
    // On 2026-07-28 (the lab's era with Brightgrid) the lab goes on when the person says so.
    await questionPage.getByText('tell it you have finished (in the Parley lab: "I\'ve finished")').waitFor();
    await questionPage.screenshot({ path: join(ARTIFACTS, 'lab-question-page-secret.png') });
    await questionPage.close();
    await saysFinished(page);
    expect(await outcomeOf(page, 'link_courier_account')).toContain(
      'Courier account linked for Alice Liddell.',
    );
    expect(await page.textContent('body')).not.toContain('ck_live_9f8e7d6c5b4a');
  },

  async cancel_order(page, step) {
    pressed(step, 'Open', 'Yes', "I've finished");
    expect(step.args).toEqual({ order: '1001' });
    await callTool(page, step, async (form) => {
      // A real range in the hint, and the argument marked as required.
      expect(await form.getByText('A whole number from 1000 to 9999.').count()).toBe(1);
      expect(await form.locator('label', { hasText: 'order' }).textContent()).toBe('order (required)');
      await form.getByLabel('order').fill(step.args.order!);
    });
    const confirmPage = await openPage(page);
    const buttons = confirmPage.getByRole('group', { name: 'Cancel this order?' }).getByRole('button');
    expect(await buttons.allTextContents()).toEqual(['Yes', 'No', 'Dismiss']);
    await confirmPage.getByRole('button', { name: 'Yes' }).click();
    await confirmPage.getByText(/reached Brightgrid/).waitFor();
    await confirmPage.close();
    await saysFinished(page);
    expect(await outcomeOf(page, 'cancel_order')).toContain('Order #1001 cancelled; €39 will be refunded.');
  },

  async list_bookings(page, step) {
    await callTool(page, step);
    const listed = await outcomeOf(page, 'list_bookings');
    for (const booked of ['Wrong item', 'Oslo', 'storefront 1.4.2', '#1001'])
      expect(listed).toContain(booked);
    expect(listed).toMatch(/#1001[^\n]*cancelled/);
  },
};

/** How long the lab may wait for one answer from Brightgrid in this test: far below a minute. */
const REQUEST_TIMEOUT_MS = 5_000;

describe('the README’s Quick start, walked in the lab as a person walks it', () => {
  let demo: Running;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let labUrl: string;
  const dataDir = freshDataDir();

  beforeAll(async () => {
    const [launched, running] = await Promise.all([
      chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
      // What `npm start -- --no-open` runs once its build is done (asserted below), with the lab's
      // request timeout set short: the person below opens the lab well after that much time.
      new Running([join(DIST, 'start.js'), '--no-open', '--request-timeout', String(REQUEST_TIMEOUT_MS)], {
        BRIGHTGRID_DATA: dataDir,
        DISPLAY: '',
        WAYLAND_DISPLAY: '',
      }),
    ]);
    [browser, demo] = [launched, running];
    labUrl = (await demo.line(/^Lab: (\S+)$/))[1]!;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.stop('SIGINT');
  });

  it('runs what the README says to run', () => {
    const commands = /Or the demo, from a clone of this repository:\n\n```sh\n([^`]*)```/.exec(
      quickStart(),
    )![1]!;
    expect(commands.trim().split('\n')).toEqual(['npm install', 'npm start']);
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.prestart).toBe('npm run build');
    expect(scripts.start).toBe('node examples/brightgrid/dist/start.js');
    expect(demo.lines.join('\n')).toContain(
      `Demo data: ${dataDir} (kept from earlier runs; npm start -- --fresh starts over with new demo data)`,
    );
  });

  it('walks every tool, in order, the lab opened well after the start', async () => {
    // Every tool Brightgrid has is in the walk, once, and the walk has nothing else.
    const tools = STEPS.slice(1).map((step) => step.name);
    expect(STEPS[0]!.name).toBe('Sign in');
    expect([...tools].sort()).toEqual(
      [
        'book_flight',
        'book_return',
        'cancel_order',
        'connect_store_account',
        'deploy',
        'link_courier_account',
        'list_bookings',
        'select_tags',
      ].sort(),
    );
    expect(Object.keys(WALK).sort()).toEqual(STEPS.map((step) => step.name).sort());

    // The person comes to the lab later than the lab's whole request timeout after the start: the
    // connection waits for their sign-in, with no clock running.
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 2_000));
    await page.goto(labUrl);
    await page.locator('.server-status', { hasText: 'sign-in needed' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 1_000));
    expect(await page.locator('.server-status').first().textContent()).toBe('sign-in needed');

    for (const step of STEPS) await WALK[step.name]!(page, step);
  });

  it("says when “I've finished” came before the page was answered", async () => {
    await callTool(page, { name: 'cancel_order', args: {}, bold: [], text: '' }, (form) =>
      form.getByLabel('order').fill('1002'),
    );
    const early = await openPage(page);
    await early.close();
    await saysFinished(page);
    const again = dialog(page);
    await again.getByRole('alert').filter({ hasText: "You chose “I've finished”" }).waitFor();
    expect(await again.locator('.parley-message').textContent()).toMatch(
      /^The page has not been answered yet/,
    );
    await again.getByRole('button', { name: 'Cancel' }).click();
    expect(await outcomeOf(page, 'cancel_order')).toContain('Order #1002 not cancelled: cancelled.');
  });

  it('npm start -- --fresh starts over with new demo data', async () => {
    await demo.stop('SIGINT');
    const status = (id: number) => {
      const db = new Database(join(dataDir, 'brightgrid.sqlite'), { readonly: true });
      try {
        return (db.prepare('SELECT status FROM orders WHERE id = ?').get(id) as { status: string }).status;
      } finally {
        db.close();
      }
    };
    expect(status(1001)).toBe('cancelled');
    demo = new Running([join(DIST, 'start.js'), '--no-open', '--fresh'], {
      BRIGHTGRID_DATA: dataDir,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    });
    expect((await demo.line(/^Demo data: (.*)$/))[1]).toBe(
      `${dataDir} (started over; npm start -- --fresh starts over with new demo data)`,
    );
    expect(status(1001)).toBe('open');
  });
});
