// Issue 17: the lab answers a server's roots and sampling requests, in Chromium, on both eras,
// against a Parley server whose tools call ctx.roots and ctx.sample. The person picks each
// connection's roots; a sampling request is shown as a model request from that server, its HTML
// inert, and the person types the reply or declines.
import { fileURLToPath } from 'node:url';
import { type AxeViolation, runAxe } from '@parley/testing/axe';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openLab, screenshotOf } from './helpers/browser.js';
import { callTool, dialog, ERA_WORDS, resultOf, waitForNoQuestion } from './helpers/lab-page.js';
import { type Running, startLabProcess } from './helpers/processes.js';

const MODEL_SERVER = fileURLToPath(
  new URL('../../../testing/dist/lab-fixture/model-server.js', import.meta.url),
);
const TARGET = `${JSON.stringify(process.execPath)} ${JSON.stringify(MODEL_SERVER)}`;

// As testing/src/lab-fixture/model-server.ts sends them.
const SYSTEM = 'You are terse.<script>window.__pwned = "script"</script>';
const USER = 'Summarise this ticket: <img src=x onerror="window.__pwned = \'img\'"><b>bold</b>';
const ASSISTANT = '</p></li></ol><a href="javascript:window.__pwned=\'link\'">click me</a>';

let browser: Browser;
let lab: Running & { url: string };

beforeAll(async () => {
  browser = await launchChromium();
  lab = await startLabProcess();
});
afterAll(async () => {
  await browser?.close();
  await lab?.stop();
});

/**
 * Starts a tool call and waits until its own card is listed (newest first), so that an earlier
 * call of the same tool cannot answer for it.
 */
async function startCall(page: Page, name: string): Promise<void> {
  const cards = page.locator('li.call').filter({
    has: page.getByRole('heading', { name: new RegExp(`^Tool ${name} on `) }),
  });
  const before = await cards.count();
  await callTool(page, name);
  await cards.nth(before).waitFor();
}

/** Calls a tool and returns its result. */
async function callFor(page: Page, name: string): Promise<string> {
  await startCall(page, name);
  return resultOf(page, name);
}

function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`).join('\n');
}

/** Connects the model fixture from the page's form and waits until it is ready on `era`. */
async function connect(page: Page, era: 'modern' | 'handshake', roots: string[]): Promise<void> {
  const before = await page.locator('#server-list li').count();
  await page.getByRole('textbox', { name: 'Server' }).fill(TARGET);
  await page.getByLabel('Era').selectOption(era);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // The new server is the last one listed, selected, and up on the era asked for.
  const added = page.locator('#server-list li').nth(before);
  await added
    .locator('.server-pick[aria-current="true"] .server-status', { hasText: ERA_WORDS[era] })
    .waitFor();
  const panel = page.locator('#server-panel');
  await panel.locator('.server-meta', { hasText: ERA_WORDS[era] }).waitFor();
  await panel.getByRole('heading', { name: 'Tools (2)' }).waitFor();
  const shown = panel.locator('.server-roots').locator('p, li');
  expect(await shown.allTextContents()).toEqual(roots);
}

describe.each(['modern', 'handshake'] as const)('the lab on the %s era', (era) => {
  let page: Page;
  const violations: string[] = [];
  const requests: string[] = [];
  beforeAll(async () => {
    page = await openLab(browser, lab.url);
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy|Trusted Type/i.test(message.text())) violations.push(message.text());
    });
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('declares no roots when the person picks none', async () => {
    await connect(page, era, ['Roots: none declared.']);
    expect(await callFor(page, 'roots')).toContain('no roots declared');
  });

  it('declares the roots the person picked (added, named, removed) and answers roots/list with them', async () => {
    const form = page.getByRole('form', { name: 'Connect a server' });
    const add = form.getByRole('button', { name: 'Add a root' });
    await add.click();
    await form.getByLabel('Root 1 URI').fill('file:///home/ada/project');
    await form.getByLabel('Root 1 name (optional)').fill('project');
    await add.click();
    await form.getByLabel('Root 2 URI').fill('file:///tmp/scratch');
    await add.click();
    await form.getByLabel('Root 3 URI').fill('file:///srv/data');
    expect(describeViolations(await runAxe(page, form))).toBe('');
    await form.getByRole('button', { name: 'Remove root 2' }).click();
    expect(await form.getByLabel('Root 2 URI').inputValue()).toBe('file:///srv/data');
    await connect(page, era, ['Roots declared (2):', 'project file:///home/ada/project', 'file:///srv/data']);
    expect(await form.locator('.root-row').count()).toBe(0);
    expect(await callFor(page, 'roots')).toContain(
      'project file:///home/ada/project\n(no name) file:///srv/data',
    );
  });

  it('refuses a root that is not a file:// URI, and connects nothing', async () => {
    const form = page.getByRole('form', { name: 'Connect a server' });
    const before = await page.locator('#server-list li').count();
    await form.getByRole('button', { name: 'Add a root' }).click();
    await form.getByLabel('Root 1 URI').fill('https://example.com/project');
    await page.getByRole('textbox', { name: 'Server' }).fill(TARGET);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page
      .locator('#lab-status', {
        hasText: 'Root 1: a root must be a file:// URI, such as file:///home/ada/project.',
      })
      .waitFor();
    expect(await page.locator('#server-list li').count()).toBe(before);
    await form.getByRole('button', { name: 'Remove root 1' }).click();
    await page.getByRole('textbox', { name: 'Server' }).fill('');
  });

  it('shows a sampling request as a model request, its HTML inert, and sends the reply the person typed', async () => {
    await startCall(page, 'summarise');
    const box = page.getByRole('dialog', { name: 'model-fixture requests a model reply (sampling)' });
    await box.waitFor();
    expect(await box.locator('.parley-call').textContent()).toBe('During the tool call “summarise”');
    expect(await box.locator('.sampling-system').textContent()).toBe(SYSTEM);
    const messages = box.locator('.sampling-message');
    expect(await messages.count()).toBe(3);
    expect(await messages.nth(0).locator('.sampling-role').textContent()).toBe('user');
    expect(await messages.nth(0).locator('.sampling-text').textContent()).toBe(USER);
    expect(await messages.nth(1).locator('.sampling-role').textContent()).toBe('assistant');
    expect(await messages.nth(1).locator('.sampling-text').textContent()).toBe(ASSISTANT);
    expect(await messages.nth(2).locator('.sampling-placeholder').textContent()).toBe(
      '[image image/png, 8 bytes: not shown]',
    );
    expect(await box.locator('.sampling-max-tokens').textContent()).toBe('at most 80 tokens');
    for (const tag of ['img', 'script', 'a', 'b']) expect(await box.locator(tag).count()).toBe(0);
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await screenshotOf(box, `lab-sampling-${era}`);

    // Approving with no reply is refused inline; nothing is sent.
    await box.getByRole('button', { name: 'Approve and send' }).click();
    await box.getByRole('alert').filter({ hasText: 'Type a reply to approve, or decline.' }).waitFor();
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await box.getByLabel('Your reply, sent as the model’s message').fill('A refund for order 42.');
    await box.getByRole('button', { name: 'Approve and send' }).click();
    await waitForNoQuestion(page);
    expect(await resultOf(page, 'summarise')).toContain('model human said: A refund for order 42.');
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  it('declines: a 2025 server hears "User rejected"; on 2026-07-28 the call is not retried', async () => {
    await startCall(page, 'summarise');
    const box = dialog(page);
    await box.getByRole('button', { name: 'Decline' }).click();
    await waitForNoQuestion(page);
    const outcome = await resultOf(page, 'summarise');
    if (era === 'handshake') expect(outcome).toContain('declined (SamplingDeclinedError, code -1)');
    else
      expect(outcome).toContain(
        'The person declined model-fixture\'s sampling request during tool "summarise"; on MCP 2026-07-28 a declined sampling request is not answered, so the call was not retried',
      );
  });

  it('Escape declines too', async () => {
    await startCall(page, 'summarise');
    const box = dialog(page);
    await box.getByRole('button', { name: 'Decline' }).waitFor();
    await page.keyboard.press('Escape');
    await waitForNoQuestion(page);
    expect(await resultOf(page, 'summarise')).toContain(
      era === 'handshake'
        ? 'declined (SamplingDeclinedError, code -1)'
        : 'a declined sampling request is not answered',
    );
  });

  it('did all of it with no CSP or Trusted Types violation and no request beyond the lab', () => {
    expect(violations).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(new URL(lab.url).origin))).toEqual([]);
  });
});
