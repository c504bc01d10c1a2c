// The README's runnable example (examples/question-page.mjs) as a reader runs it: a real process,
// its page opened in Chromium, answered, and the answer printed with the secret left out.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { SETTLE_TIMEOUT_MS } from '@parley/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './helpers/browser.js';

const EXAMPLE = fileURLToPath(new URL('../examples/question-page.mjs', import.meta.url));

let browser: Browser;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  child?.kill();
});

it('serves its page, takes the answer, prints it with the key as its length, and exits', async () => {
  child = spawn(process.execPath, [EXAMPLE], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit');
  await expect
    .poll(() => stdout, { timeout: SETTLE_TIMEOUT_MS })
    .toMatch(/^Question page: http:\/\/127\.0\.0\.1:\d+\/\n/);
  const url = stdout.split(' ')[2]!.trim();

  const page = await browser.newPage();
  await page.goto(url);
  expect(await page.title()).toBe('Brightgrid asks a question');
  await page.getByLabel('Account name').fill('acme');
  await page.getByLabel('Courier API key', { exact: true }).fill('sk-live-123456');
  await page.getByRole('button', { name: 'Review answers' }).click();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await page.getByRole('heading', { name: 'Answer sent' }).waitFor();
  expect(await page.locator('.parley-page-done p').textContent()).toBe(
    'Thanks, your answer reached Brightgrid. You can close this page.',
  );

  const [code] = await exited;
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout.split('\n')[1]).toBe(
    'Answer: accept {"account":"acme","pickups":1,"apiKey":"(14 characters)"}',
  );
  expect(stdout).not.toContain('sk-live');
});
