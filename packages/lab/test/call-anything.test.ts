// Per server: name and version, tools, prompts, resources and templates; a form for a tool's input
// built from its input schema; results as text, JSON, images and embedded resources; tool errors.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openLab, screenshot } from './helpers/browser.js';
import { callCard, callTool, resultOf } from './helpers/lab-page.js';
import { type Running, STDIO_FIXTURE, startLabProcess } from './helpers/processes.js';

let browser: Browser;
let lab: Running & { url: string };
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  lab = await startLabProcess([STDIO_FIXTURE, '--era', 'modern']);
  page = await openLab(browser, lab.url);
  await page.getByRole('heading', { name: /^Tools/ }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await lab?.stop();
});

describe('a connected server', () => {
  it('shows its name, version, era and everything it offers', async () => {
    const panel = page.getByRole('region', { name: 'Selected server' });
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe('lab-fixture 1.2.3');
    expect(await panel.locator('.server-meta').textContent()).toContain(
      '2026-07-28 (modern) · protocol 2026-07-28',
    );
    expect(await panel.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Tools (9)',
      'Prompts (1)',
      'Resources (1)',
      'Resource templates (1)',
    ]);
    expect(await panel.locator('.item-name').allTextContents()).toEqual([
      'every_field',
      'cleared_default',
      'three_rounds',
      'two_at_once',
      'sign_in',
      'bad_link',
      'echo',
      'picture',
      'broken',
      'greeting',
      'lab://readme',
      'lab://notes/{id}',
    ]);
    // Its name, where it is (issue 15: a name can be faked, a place cannot) and its era.
    expect(await page.getByRole('navigation').getByRole('button').textContent()).toBe(
      `lab-fixture 1.2.3command: ${STDIO_FIXTURE}2026-07-28 (modern)`,
    );
  });
});

describe('a tool input form', () => {
  it('is built from the input schema: subset fields as form controls, anything else as JSON', async () => {
    await page.getByRole('button', { name: 'Call echo', exact: true }).click();
    const form = page.locator('#call-panel form');
    await form.getByRole('heading', { name: 'Call tool echo' }).waitFor();
    const kinds = await form
      .locator('.parley-field')
      .evaluateAll((fields) =>
        fields.map(
          (field) => `${(field as HTMLElement).dataset.field}:${(field as HTMLElement).dataset.kind}`,
        ),
      );
    expect(kinds).toEqual(['text:text', 'count:integer', 'mood:choice', 'loud:boolean', 'tags:json']);
    expect(await form.getByText('Any text').isVisible()).toBe(true);
    expect(await form.getByText('A whole number from 1 to 10.').isVisible()).toBe(true);
    expect(
      await form.getByLabel('Mood').evaluate((select) => (select as HTMLSelectElement).options.length),
    ).toBe(3);
  });

  it('checks the arguments before calling, with the message next to the field', async () => {
    const form = page.locator('#call-panel form');
    await form.getByLabel('text').fill('hi');
    await form.getByLabel('count').fill('11');
    await form.getByLabel('tags').fill('[not json');
    await form.getByRole('button', { name: 'Call tool' }).click();
    expect(await form.locator('[data-field="count"] .parley-error').textContent()).toBe(
      'Enter a whole number between 1 and 10',
    );
    expect(await form.locator('[data-field="tags"] .parley-error').textContent()).toBe('Enter valid JSON');
    expect(await form.getByRole('status').textContent()).toBe('Some arguments need attention.');
    expect(await page.locator('li.call').count()).toBe(0);
  });

  it('calls the tool and shows its text and structured content', async () => {
    const form = page.locator('#call-panel form');
    await form.getByLabel('count').fill('2');
    await form.getByLabel('mood').selectOption('busy');
    await form.getByLabel('loud').check();
    await form.getByLabel('tags').fill('["a", "b"]');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const result = await resultOf(page, 'echo');
    expect(result).toContain('echo: {"text":"hi","count":2,"mood":"busy","loud":true,"tags":["a","b"]}');
    const card = callCard(page, 'echo');
    expect(await card.locator('.call-args').textContent()).toBe(
      'Arguments {"text":"hi","count":2,"mood":"busy","loud":true,"tags":["a","b"]}',
    );
    const structured = JSON.parse((await card.locator('.result > pre.json').first().textContent())!);
    expect(structured).toEqual({
      echoed: { text: 'hi', count: 2, mood: 'busy', loud: true, tags: ['a', 'b'] },
    });
    await card.getByText('Result as JSON').click();
    const raw = JSON.parse((await card.locator('details.raw pre').textContent())!);
    expect(raw.content[0]).toEqual({ type: 'text', text: expect.stringContaining('echo:') });
  });

  it('marks required arguments, and keeps what was typed when it is opened again', async () => {
    const form = page.locator('#call-panel form');
    expect(await form.locator('label', { hasText: /^text/ }).textContent()).toBe('text (required)');
    expect(await form.locator('label', { hasText: /^mood/ }).textContent()).toBe('mood (optional)');
    await form.getByLabel('text').fill('kept');
    // Another tool's form, then this one again: what the person typed is still there.
    await page.getByRole('button', { name: 'Call picture', exact: true }).click();
    await form.getByRole('heading', { name: 'Call tool picture' }).waitFor();
    await page.getByRole('button', { name: 'Call echo', exact: true }).click();
    await form.getByRole('heading', { name: 'Call tool echo' }).waitFor();
    expect(await form.getByLabel('text').inputValue()).toBe('kept');
    expect(await form.getByLabel('count').inputValue()).toBe('2');
    expect(await form.getByLabel('tags').inputValue()).toBe('["a","b"]');
  });

  it('leaves out an optional yes/no the person did not touch (a checkbox cannot say "not given")', async () => {
    // Typed arguments live in the page's memory only: a reload starts from empty forms.
    await page.reload();
    await page.getByRole('heading', { name: /^Tools/ }).waitFor();
    const form = page.locator('#call-panel form');
    const call = async (fill: () => Promise<void>) => {
      await page.getByRole('button', { name: 'Call echo', exact: true }).click();
      await form.getByRole('heading', { name: 'Call tool echo' }).waitFor();
      await fill();
      const before = await page.locator('li.call').count();
      await form.getByRole('button', { name: 'Call tool' }).click();
      await page.locator('li.call').nth(before).waitFor();
      return resultOf(page, 'echo');
    };
    expect(
      await call(async () => {
        await form.getByLabel('text').fill('quiet');
        await form.getByLabel('count').fill('1');
      }),
    ).toContain('echo: {"text":"quiet","count":1}');
    // Touched, then unchecked: false is the person's answer.
    const touched = await call(async () => {
      await form.getByLabel('loud').check();
      await form.getByLabel('loud').uncheck();
    });
    expect(touched).toContain('echo: {"text":"quiet","count":1,"loud":false}');
  });
});

describe('results', () => {
  it('show images inline and embedded resources with their URI', async () => {
    await callTool(page, 'picture');
    await resultOf(page, 'picture');
    const card = callCard(page, 'picture');
    const image = card.getByRole('img', { name: 'Image from the server (image/png)' });
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    expect(await card.locator('.resource-uri').textContent()).toBe('Resource lab://notes/1');
    expect(await card.locator('.resource pre.text').textContent()).toBe('Note one');
    expect(await card.locator('a').count()).toBe(0);
  });

  it('show a tool error as an error', async () => {
    await callTool(page, 'broken');
    const result = await resultOf(page, 'broken');
    expect(result).toContain('The tool reported an error');
    expect(result).toContain('The warehouse is closed.');
    const card = callCard(page, 'broken');
    expect(await card.locator('.result-error').count()).toBe(1);
    expect((await card.locator('.timeline li').allTextContents()).at(-1)).toMatch(/Tool error \(\d+ ms\)$/);
  });

  it('get a prompt with its arguments and show its messages', async () => {
    await page.getByRole('button', { name: 'Get greeting', exact: true }).click();
    const form = page.locator('#call-panel form');
    await form.getByRole('heading', { name: 'Get prompt greeting' }).waitFor();
    await form.getByRole('button', { name: 'Get prompt' }).click();
    expect(await form.locator('.parley-error').first().textContent()).toBe('This field is required');
    await form.getByLabel('name').fill('Ada');
    await form.getByRole('button', { name: 'Get prompt' }).click();
    expect(await resultOf(page, 'greeting')).toContain('userSay hello to Ada.');
  });

  it('read a resource, and a resource template filled in from its variables', async () => {
    await page.getByRole('button', { name: 'Read lab://readme', exact: true }).click();
    expect(await resultOf(page, 'lab://readme')).toContain('The lab fixture server.');
    await page.getByRole('button', { name: 'Read lab://notes/{id}', exact: true }).click();
    const form = page.locator('#call-panel form');
    await form.getByLabel('id').fill('7');
    await form.getByRole('button', { name: 'Read resource' }).click();
    expect(await resultOf(page, 'lab://notes/7')).toContain('Note 7');
    await screenshot(page, 'call-anything', true);
  });
});

describe('calls', () => {
  it('can be stopped with Stop call while the server waits for a web page flow', async () => {
    await page
      .context()
      .route('https://login.xn--bcher-kva.com/**', (route) => route.fulfill({ body: 'ok' }));
    await callTool(page, 'sign_in');
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('dialog').getByRole('button', { name: 'Open' }).click(),
    ]);
    await popup.close();
    const card = callCard(page, 'sign_in');
    await card.getByRole('group', { name: 'Web page flow' }).waitFor();
    await card.getByRole('button', { name: 'Stop call' }).click();
    expect(await resultOf(page, 'sign_in')).toContain('on lab-fixture was cancelled');
    expect(await card.getAttribute('data-status')).toBe('failed');
    expect(await card.getByRole('group', { name: 'Web page flow' }).count()).toBe(0);
  });

  it('withdraws a shown question when its call is stopped elsewhere (another tab)', async () => {
    await callTool(page, 'three_rounds');
    await page.getByRole('dialog').getByLabel('Name').waitFor();
    const card = callCard(page, 'three_rounds');
    const callId = await card.getAttribute('data-call-id');
    const token = new URL(lab.url).searchParams.get('token');
    const stopped = await page.evaluate(
      async ({ callId, token }) =>
        (
          await fetch(`/api/calls/${callId}/cancel`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: '{}',
          })
        ).status,
      { callId, token },
    );
    expect(stopped).toBe(200);
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await page.locator('#lab-status').textContent()).toBe('A question was withdrawn: its call ended.');
    expect(await resultOf(page, 'three_rounds')).toContain('on lab-fixture was cancelled');
    expect(await card.getAttribute('data-status')).toBe('failed');
  });
});
