// Questions that arrive together (here from two servers at once) reach the person one at a time,
// in the order they arrived, each saying which server asks; cancel ends the round it belongs to.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { screenshot } from './helpers/browser.js';
import { resultOf, reviewAndAccept, waitForNoQuestion, waitForQuestion } from './helpers/lab-page.js';
import { startTwoServerLab, type TwoServerLab } from './helpers/two-server-lab.js';

let setup: TwoServerLab;
let lab: TwoServerLab['lab'];
let page: Page;

beforeAll(async () => {
  setup = await startTwoServerLab();
  ({ lab, page } = setup);
});

afterAll(async () => {
  await setup?.stop();
});

async function startCall(serverId: string, name: string): Promise<void> {
  const token = new URL(lab.url).searchParams.get('token')!;
  // The dialog is modal, so the second call comes from outside it, as from another tab.
  const status = await page.evaluate(
    async ({ token, serverId, name }) =>
      (
        await fetch('/api/calls', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ serverId, kind: 'tool', name, arguments: {} }),
        })
      ).status,
    { token, serverId, name },
  );
  expect(status).toBe(200);
}

it('shows questions one at a time in the order they arrived, whichever server asks', async () => {
  await startCall('s1', 'three_rounds');
  const box = await waitForQuestion(page, 'What is your name?');
  expect(await box.locator('.queue-note').textContent()).toBe('');

  await startCall('s2', 'two_at_once');
  await box.locator('.queue-note', { hasText: '1 more question waiting after this one.' }).waitFor();
  expect(await box.locator('.parley-message').textContent()).toBe('What is your name?');
  await screenshot(page, 'question-queue');
  await box.getByLabel('Name').fill('Ada');
  await reviewAndAccept(page);

  // three_rounds asked its round 2 after two_at_once asked: two_at_once goes first.
  await box.locator('.parley-call', { hasText: 'two_at_once' }).waitFor();
  await box.locator('.queue-note', { hasText: '1 more question waiting after this one.' }).waitFor();
  expect(await box.locator('.parley-call').textContent()).toContain('question 1 of 2');
  await box.getByRole('button', { name: 'Cancel' }).click();

  await waitForQuestion(page, 'Hello Ada. How many boxes?');
  expect(await box.locator('.parley-call').textContent()).toBe(
    'During the tool call “three_rounds” · round 2',
  );
  await box.getByRole('button', { name: 'Decline' }).click();

  // Cancel ended two_at_once's whole round: its other question was answered cancel, never shown.
  await waitForNoQuestion(page);
  expect(await resultOf(page, 'three_rounds')).toContain('stopped at round 2: decline');
  expect(await resultOf(page, 'two_at_once')).toContain('two_at_once: city cancel; nights cancel');
});
