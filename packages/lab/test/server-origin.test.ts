// Issue 15, finding 8: a server names itself, so an impostor can take another's name. The lab shows
// where each server is (the origin of its URL, or its command line) next to its name, in the side
// bar and above each question, and flags servers that share a name. Both fixture servers here call
// themselves "lab-fixture": one over stdio, one over HTTP.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser.js';
import { callTool, dialog, waitForQuestion } from './helpers/lab-page.js';
import { FIXTURE_SERVER, STDIO_FIXTURE } from './helpers/processes.js';
import { startTwoServerLab, type TwoServerLab } from './helpers/two-server-lab.js';

const SAME_NAME = 'Another server has this name: check where each one is.';

let setup: TwoServerLab;
let fixture: TwoServerLab['fixture'];
let page: Page;

beforeAll(async () => {
  setup = await startTwoServerLab();
  ({ fixture, page } = setup);
});

afterAll(async () => {
  await setup?.stop();
});

const pick = (id: string) => page.locator(`[data-server-id="${id}"] .server-pick`);

describe('where a server is', () => {
  it('is shown next to its name, and two servers with one name are flagged', async () => {
    const origin = new URL(fixture.url).origin;
    expect(await pick('s1').locator('.server-name').textContent()).toBe('lab-fixture 1.2.3');
    expect(await pick('s2').locator('.server-name').textContent()).toBe('lab-fixture 1.2.3');
    expect(await pick('s1').locator('.server-place').textContent()).toBe(`command: ${STDIO_FIXTURE}`);
    expect(await pick('s1').locator('.server-place').textContent()).toContain(FIXTURE_SERVER);
    expect(await pick('s2').locator('.server-place').textContent()).toBe(origin);
    for (const id of ['s1', 's2']) expect(await pick(id).locator('.same-name').textContent()).toBe(SAME_NAME);
    await screenshot(page, 'same-name-servers');
  });

  it('is shown above each question, with the flag', async () => {
    await pick('s2').click();
    await callTool(page, 'three_rounds');
    const box = await waitForQuestion(page, 'What is your name?');
    expect(await box.locator('.question-origin').textContent()).toBe(
      `From ${new URL(fixture.url).origin} ${SAME_NAME}`,
    );
    await box.getByRole('button', { name: 'Cancel' }).click();
  });

  it('loses the flag when the other server is gone', async () => {
    await pick('s1').click();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('[data-server-id="s1"]').waitFor({ state: 'detached' });
    await pick('s2').locator('.server-place').waitFor();
    expect(await pick('s2').locator('.same-name').count()).toBe(0);
    await pick('s2').click();
    await callTool(page, 'three_rounds');
    const box = await waitForQuestion(page, 'What is your name?');
    expect(await box.locator('.question-origin').textContent()).toBe(`From ${new URL(fixture.url).origin}`);
    await box.getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
  });
});
