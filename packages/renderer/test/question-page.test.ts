// The question page in Chromium, as a person meets it: served with its strict CSP and JSON island
// by a stand-in for the server side (helpers/question-page-server.ts), with the built script and
// stylesheet. Every test ends with no CSP violation and no script error on the page.
import type { RequestedSchema } from '@parley/core/form';
import { EVERY_FIELD_SCHEMA } from '@parley/testing';
import { type AxeViolation, runAxe } from '@parley/testing/axe';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './helpers/browser.js';
import {
  type PageSetup,
  type QuestionPageServer,
  startQuestionPageServer,
  THANKS,
} from './helpers/question-page-server.js';

const SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    ...EVERY_FIELD_SCHEMA.properties,
    apiKey: { type: 'string', title: 'Courier API key', minLength: 8 },
  },
  required: [...(EVERY_FIELD_SCHEMA.required ?? []), 'apiKey'],
};

const BASE: PageSetup = {
  v: 1,
  server: { name: 'brightgrid', title: 'Brightgrid', version: '1.4.0' },
  call: { kind: 'tool', name: 'book_return' },
  message: 'Tell us about your return.',
  requestedSchema: SCHEMA,
  secretFields: ['apiKey'],
  csrf: 'csrf-7f3a9c',
  expiresAt: Date.now() + 15 * 60_000,
  after: 'url',
};

const NAME_ONLY: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    agree: { type: 'boolean', title: 'Keep me posted' },
  },
  required: ['name'],
};

let browser: Browser;
let server: QuestionPageServer;
let page: Page;
let scriptErrors: string[];

beforeAll(async () => {
  browser = await launchChromium();
  server = await startQuestionPageServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  expect(await cspViolations()).toEqual([]);
  expect(scriptErrors).toEqual([]);
  await page.context().close();
  server.answers.length = 0;
  server.replies.length = 0;
});

/** Opens a page in a fresh context (Paris time), recording CSP violations and script errors. */
async function openPage(setup: Partial<PageSetup> = {}, waitForForm = true): Promise<Page> {
  const context = await browser.newContext({ timezoneId: 'Europe/Paris', locale: 'en-US' });
  page = await context.newPage();
  scriptErrors = [];
  await page.addInitScript(() => {
    const win = window as unknown as { cspViolations: string[] };
    win.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      win.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  page.on('console', (message: ConsoleMessage) => {
    // Chromium logs every refused answer (4xx) and a dropped connection as a failed load.
    if (message.type() === 'error' && !/Failed to load resource|net::ERR_/.test(message.text()))
      scriptErrors.push(message.text());
  });
  await page.goto(server.open({ ...BASE, ...setup }));
  if (waitForForm) await page.locator('form.parley-elicitation').waitFor();
  return page;
}

const cspViolations = () =>
  page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);

function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((item) => `${item.impact} ${item.id}: ${item.help} (${item.targets.join(', ')})`)
    .join('\n');
}

const axe = async () => describeViolations(await runAxe(page, page.locator('body')));
const main = () => page.locator('#parley-question-page');
const alert = () => main().locator('.parley-page-alert');
const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');

async function fillEveryField(boxes = '2'): Promise<void> {
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Website').fill('https://example.com/ada');
  await page.getByLabel('Pickup date').fill('2026-08-01');
  await page.getByLabel('Meeting time').fill('2026-08-01T09:30');
  await page.getByLabel('Weight (kg)').fill('2.5');
  await page.getByLabel('Boxes').fill(boxes);
  await page.getByLabel('Fragile').check();
  await page.getByLabel('Size').selectOption('M');
  await page.getByLabel('Color').selectOption({ label: 'Green' });
  await page.getByLabel('Speed').selectOption({ label: 'Express' });
  await page.getByRole('group', { name: 'Days' }).getByLabel('mon').check();
  await page.getByRole('group', { name: 'Extras (optional)' }).getByLabel('Gift wrap').check();
  await page.getByLabel('Courier API key', { exact: true }).fill('sk-live-5551234');
}

const EVERY_ANSWER = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  website: 'https://example.com/ada',
  pickup: '2026-08-01',
  meeting: '2026-08-01T09:30:00+02:00',
  weight: 2.5,
  boxes: 2,
  fragile: true,
  size: 'M',
  color: 'g',
  speed: 'exp',
  days: ['mon'],
  extras: ['wrap', 'card'],
  apiKey: 'sk-live-5551234',
};

async function reviewAndAccept(): Promise<void> {
  await page.getByRole('button', { name: 'Review answers' }).click();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** Waits until the server has received `count` answers. */
async function answersReceived(count: number): Promise<unknown[]> {
  await expect.poll(() => server.answers.length).toBe(count);
  return server.answers.map((answer) => answer.body);
}

describe('the question page', () => {
  it('runs under the strict CSP: an inline script or style is refused and reported', async () => {
    await openPage();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.ran = true';
      document.body.append(script);
      document.body.setAttribute('style', 'color: red');
    });
    await expect.poll(cspViolations).toEqual(['script-src-elem inline', 'style-src-attr inline']);
    expect(await page.evaluate(() => 'ran' in window)).toBe(false);
    expect(scriptErrors).toHaveLength(2);
    expect(scriptErrors.every((text) => text.includes('Content Security Policy'))).toBe(true);
    // Both detectors work; the check after each test starts clean.
    scriptErrors.length = 0;
    await page.evaluate(() => {
      (window as unknown as { cspViolations: string[] }).cspViolations = [];
    });
  });

  it('shows who asks, during which call, the message, until when the link works, and every field kind', async () => {
    await openPage();
    expect(await main().getByRole('heading', { level: 1 }).textContent()).toBe('Brightgrid asks a question');
    // The page's heading names the server; the form's heading names the call, said once.
    expect(await main().getByRole('heading', { level: 2 }).textContent()).toBe(
      'During the tool call “book_return”',
    );
    expect(await main().locator('.parley-call').count()).toBe(0);
    expect(await main().locator('.parley-message').textContent()).toBe('Tell us about your return.');
    expect(await main().locator('.parley-page-expiry').textContent()).toMatch(
      /^This link works until \d{1,2}:\d{2} [AP]M\.$/,
    );
    const control = (name: string) =>
      page.getByLabel(name, { exact: true }).evaluate((element) => {
        const input = element as HTMLInputElement;
        return element.tagName === 'INPUT' ? `input:${input.type}` : element.tagName.toLowerCase();
      });
    expect(await control('Full name')).toBe('input:text');
    expect(await control('Email')).toBe('input:email');
    expect(await control('Website (optional)')).toBe('input:url');
    expect(await control('Pickup date')).toBe('input:date');
    expect(await control('Meeting time')).toBe('input:datetime-local');
    expect(await control('Weight (kg)')).toBe('input:text');
    expect(await control('Boxes')).toBe('input:text');
    expect(await control('Fragile')).toBe('input:checkbox');
    expect(await control('Size')).toBe('select');
    expect(await page.getByLabel('Color').locator('option').allTextContents()).toEqual([
      'Choose…',
      'Red',
      'Green',
    ]);
    expect(await page.getByLabel('Speed').locator('option').allTextContents()).toEqual([
      'Choose…',
      'Standard',
      'Express',
    ]);
    expect(await page.getByRole('group', { name: 'Days' }).getByRole('checkbox').count()).toBe(3);
    expect(await page.getByRole('group', { name: 'Extras (optional)' }).getByRole('checkbox').count()).toBe(
      2,
    );
    expect(await control('Courier API key')).toBe('input:password');
    expect(await page.getByRole('button', { name: 'Show Courier API key' }).count()).toBe(1);
    expect(await page.getByRole('button').allTextContents()).toEqual([
      'Show',
      'Review answers',
      'Decline',
      'Cancel',
    ]);
    expect(await axe()).toBe('');
    await screenshot(page, 'question-page-form', true);
  });

  it('checks answers while they are typed', async () => {
    await openPage();
    await page.getByLabel('Boxes').fill('9');
    await page.getByLabel('Email').fill('ada@');
    await page.getByLabel('Courier API key', { exact: true }).fill('short');
    const error = (field: string) => main().locator(`[data-field="${field}"] .parley-error`).textContent();
    expect(await error('boxes')).toBe('Enter a whole number between 1 and 5');
    expect(await error('email')).toMatch(/email/i);
    expect(await error('apiKey')).toMatch(/at least 8/);
    expect(await page.getByLabel('Boxes').getAttribute('aria-invalid')).toBe('true');
    expect(await axe()).toBe('');
    await page.getByLabel('Boxes').fill('3');
    expect(await error('boxes')).toBe('');
  });

  it('Accept posts the checked answer with the csrf, same-origin, then says it was sent', async () => {
    await openPage();
    await fillEveryField();
    await page.getByRole('button', { name: 'Review answers' }).click();
    const review = await main().locator('.parley-review-list').textContent();
    expect(review).toContain('Courier API keyhidden (15 characters)');
    expect(review).not.toContain('sk-live');
    expect(await axe()).toBe('');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    expect(await answersReceived(1)).toEqual([
      { csrf: 'csrf-7f3a9c', action: 'accept', content: EVERY_ANSWER },
    ]);
    const { headers } = server.answers[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers.origin).toBe(server.origin);
    expect(headers['sec-fetch-site']).toBe('same-origin');
    expect(headers.referer).toBeUndefined();
    await main().getByRole('heading', { name: 'Answer sent' }).waitFor();
    expect(await focusedText()).toBe('Answer sent');
    expect(await main().locator('.parley-page-done p').textContent()).toBe(THANKS);
    expect(await main().locator('form').count()).toBe(0);
    expect(await main().locator('.parley-page-expiry').count()).toBe(0);
    expect(await axe()).toBe('');
    await screenshot(page, 'question-page-sent', true);
  });

  it.each([
    ['Decline', 'decline', 'Declined'],
    ['Cancel', 'cancel', 'Cancelled'],
  ])('%s posts %s with the csrf and no content, then says %s', async (button, action, title) => {
    await openPage();
    await page.getByLabel('Full name').fill('Typed but not sent');
    await page.getByRole('button', { name: button }).click();
    expect(await answersReceived(1)).toEqual([{ csrf: 'csrf-7f3a9c', action }]);
    await main().getByRole('heading', { name: title }).waitFor();
    expect(await focusedText()).toBe(title);
  });

  it('422: shows the server’s errors by field, and the person fixes them and sends again', async () => {
    server.replies.push({
      status: 422,
      body: {
        ok: false,
        message: 'Some answers need attention.',
        errors: [{ field: 'boxes', message: 'Only 1 box fits in the van on that day' }],
      },
    });
    await openPage();
    await fillEveryField('2');
    await reviewAndAccept();
    await answersReceived(1);
    await expect.poll(() => alert().textContent()).toBe('Some answers need attention.');
    expect(await main().locator('[data-field="boxes"] .parley-error').textContent()).toBe(
      'Only 1 box fits in the van on that day',
    );
    expect(await page.getByLabel('Boxes').evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.getByLabel('Courier API key', { exact: true }).inputValue()).toBe('sk-live-5551234');
    expect(await axe()).toBe('');
    await page.getByLabel('Boxes').fill('1');
    await reviewAndAccept();
    const bodies = await answersReceived(2);
    expect(bodies[1]).toEqual({
      csrf: 'csrf-7f3a9c',
      action: 'accept',
      content: { ...EVERY_ANSWER, boxes: 1 },
    });
    await main().getByRole('heading', { name: 'Answer sent' }).waitFor();
    expect(await alert().textContent()).toBe('');
  });

  it('410: shows the server’s message and keeps the form disabled', async () => {
    server.replies.push({
      status: 410,
      body: { ok: false, message: 'This link has expired. Ask your app again.' },
    });
    await openPage();
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => alert().textContent()).toBe('This link has expired. Ask your app again.');
    expect(await focusedText()).toBe('This link has expired. Ask your app again.');
    expect(await main().locator('button:not([disabled]), input:not([disabled])').count()).toBe(0);
    expect(await axe()).toBe('');
    await screenshot(page, 'question-page-expired', true);
    expect(await answersReceived(1)).toHaveLength(1);
  });

  it('a 400 and a dropped connection say so, and the person can send again', async () => {
    server.replies.push({ status: 400, body: { ok: false, message: 'The answer must be JSON.' } }, 'drop');
    await openPage({ requestedSchema: NAME_ONLY, secretFields: [] });
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => alert().textContent()).toBe('The answer must be JSON.');
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect
      .poll(() => alert().textContent())
      .toBe('Could not send your answer. Check your connection and try again.');
    expect(await axe()).toBe('');
    await page.getByRole('button', { name: 'Decline' }).click();
    await main().getByRole('heading', { name: 'Declined' }).waitFor();
    expect(await answersReceived(3)).toEqual(Array(3).fill({ csrf: 'csrf-7f3a9c', action: 'decline' }));
  });

  it('can be answered with the keyboard alone', async () => {
    await openPage({ requestedSchema: NAME_ONLY, secretFields: [] });
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent),
    ).toBe('Name');
    await page.keyboard.type('Ada');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await main().getByRole('heading', { name: 'Check your answers' }).waitFor();
    expect(await focusedText()).toBe('Check your answers');
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Accept');
    await page.keyboard.press('Enter');
    expect(await answersReceived(1)).toEqual([
      { csrf: 'csrf-7f3a9c', action: 'accept', content: { name: 'Ada', agree: true } },
    ]);
    await main().getByRole('heading', { name: 'Answer sent' }).waitFor();
    expect(await focusedText()).toBe('Answer sent');
  });

  it('does not cancel on Escape: a stray key must not end the question', async () => {
    await openPage({ requestedSchema: NAME_ONLY, secretFields: [] });
    await page.getByLabel('Name').fill('Ada');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(200);
    expect(server.answers).toEqual([]);
    expect(await page.getByRole('button', { name: 'Review answers' }).isEnabled()).toBe(true);
  });

  it('tells a person whose app asks again what to do, when the server gives no message', async () => {
    server.replies.push({ status: 200, body: { ok: true } });
    await openPage({ requestedSchema: NAME_ONLY, secretFields: [], after: 'retry' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await main().getByRole('heading', { name: 'Cancelled' }).waitFor();
    expect(await main().locator('.parley-page-done p').textContent()).toBe(
      'Your answer reached Brightgrid. Go back to your app and make the same request again.',
    );
  });

  it('shows server text as text: no markup, no script, no link', async () => {
    const hostile =
      '<img src=x onerror="window.pwned=1"></script><script>window.pwned=2</script><a href="https://evil.example">x</a>';
    server.replies.push({ status: 200, body: { ok: true, message: `Done ${hostile}` } });
    await openPage({
      server: { name: `<b>Evil</b> ${hostile}` },
      call: { kind: 'prompt', name: hostile },
      message: `Hello ${hostile}`,
      requestedSchema: {
        type: 'object',
        properties: { site: { type: 'string', title: `<i>Site</i> ${hostile}`, description: hostile } },
      },
      secretFields: [],
    });
    const inside = 'img, script, a, b, i, iframe';
    expect(await main().locator(inside).count()).toBe(0);
    expect(await page.title()).toBe(`<b>Evil</b> ${hostile} asks a question`);
    expect(await main().getByRole('heading', { level: 1 }).textContent()).toBe(
      `<b>Evil</b> ${hostile} asks a question`,
    );
    expect(await main().locator('.parley-message').textContent()).toBe(`Hello ${hostile}`);
    expect(await main().getByRole('heading', { level: 2 }).textContent()).toBe(
      `While getting the prompt “${hostile}”`,
    );
    await page.getByRole('button', { name: 'Decline' }).click();
    await main().getByRole('heading', { name: 'Declined' }).waitFor();
    expect(await main().locator('.parley-page-done p').textContent()).toBe(`Done ${hostile}`);
    expect(await main().locator(inside).count()).toBe(0);
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
  });

  it('refuses data it cannot trust, such as an answer URL on another origin, and posts nothing', async () => {
    await openPage({ answerUrl: 'https://evil.example/collect' }, false);
    await alert().waitFor();
    expect(await alert().textContent()).toBe(
      "This page cannot show its question. Go back to your app and ask again.(The page's data is not usable: answerUrl must be on the page's own origin.)",
    );
    expect(await main().locator('form').count()).toBe(0);
    expect(await axe()).toBe('');
    expect(server.answers).toEqual([]);
  });
});
