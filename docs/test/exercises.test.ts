// The guide's exercises on the built site, in Chromium: for each one, Check on the untouched starter
// says "Not yet" with the hint, and Check on the reference solution says "Right!". The sandbox runs
// the code in a worker that cannot reach the page.

import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type StaticSite, serveStatic } from './static-site.js';

let site: StaticSite;
let browser: Browser;
let page: Page;
let ids: string[];

beforeAll(async () => {
  site = await serveStatic(inject('siteDir'));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  page = await browser.newPage();
  await page.goto(`${site.url}/guide/`);
  ids = await page
    .locator('.exercise-box')
    .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('data-exercise')!));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const box = (id: string): Locator => page.locator(`.exercise-box[data-exercise="${id}"]`);

async function check(exercise: Locator): Promise<string> {
  await exercise.locator('.exercise-check').click();
  const verdict = exercise.locator('.exercise-verdict');
  await expect.poll(() => verdict.getAttribute('data-pass')).not.toBeNull();
  return ((await verdict.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

describe('the guide page', () => {
  it('has at least ten exercises, each in a step of the guide', async () => {
    expect(ids.length).toBeGreaterThanOrEqual(10);
    const steps = await page.locator('.vp-doc h2').evaluateAll((headings) =>
      headings.map((heading) => {
        let count = 0;
        for (
          let node = heading.nextElementSibling;
          node && node.tagName !== 'H2';
          node = node.nextElementSibling
        )
          count += node.querySelectorAll('.exercise-box').length;
        return count;
      }),
    );
    expect(steps.length).toBe(8);
    expect(
      steps.every((count) => count >= 1),
      `exercises per step: ${steps.join(', ')}`,
    ).toBe(true);
  });
});

describe('each exercise', () => {
  it('says "Not yet" with the hint for the starter, and "Right!" for the solution', async () => {
    for (const id of ids) {
      const exercise = box(id);
      const starter = await check(exercise);
      expect(starter, id).toMatch(/^Not yet\. /);
      expect(starter, id).toContain('Hint: ');
      await exercise.locator('.exercise-show-solution').click();
      expect(await check(exercise), id).toMatch(/^Right! The last line is /);
      await exercise.locator('.exercise-start-over').click();
    }
  });
});

describe('the sandbox', () => {
  it('runs the code where there is no page: no window, no document', async () => {
    const exercise = box(ids[0]!);
    await exercise.locator('textarea').fill('[typeof window, typeof document, typeof localStorage].join()');
    expect(await check(exercise)).toContain('The last line is "undefined,undefined,undefined"');
  });

  it('stops code that never ends, and the page goes on', async () => {
    const exercise = box(ids[0]!);
    await exercise.locator('textarea').fill('while (true) {}\n1');
    expect(await check(exercise)).toMatch(/Not yet\. It ran for more than 5 seconds/);
    await exercise.locator('.exercise-show-solution').click();
    expect(await check(exercise)).toMatch(/^Right!/);
  });
});
