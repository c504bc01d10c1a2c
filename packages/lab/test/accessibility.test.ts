// axe-core on the form and URL dialogs, keyboard-only answering, focus management and accessible
// names. The lab is started with its target on the command line (`parley lab <target>`).

import { type AxeViolation, runAxe } from '@parley/testing/axe';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openLab, screenshot } from './helpers/browser.js';
import { fillEveryField } from './helpers/form-flows.js';
import { callTool, dialog, resultOf, waitForNoQuestion, waitForQuestion } from './helpers/lab-page.js';
import { type Running, STDIO_FIXTURE, startLabProcess } from './helpers/processes.js';

let browser: Browser;
let lab: Running & { url: string };
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  lab = await startLabProcess([STDIO_FIXTURE]);
  page = await openLab(browser, lab.url);
  await page.getByRole('heading', { name: /^Tools/ }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await lab?.stop();
});

function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((item) => `${item.impact} ${item.id}: ${item.help} (${item.targets.join(', ')})`)
    .join('\n');
}

async function activeElement(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return active
      ? `${active.tagName.toLowerCase()}:${active.getAttribute('aria-label') ?? active.textContent?.trim() ?? ''}:${active.id}`
      : '';
  });
}

async function focusedLabel(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null;
    return active?.labels?.[0]?.textContent?.trim() ?? '';
  });
}

// The issue asks for no serious violations; the lab has none of any impact, and keeps it that way.
describe('axe-core finds no violations', () => {
  it('in the form dialog: fields, inline errors and the review step', async () => {
    await callTool(page, 'every_field');
    const box = await waitForQuestion(page, 'Tell us about your order.');
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await fillEveryField(page, '99', '9');
    await box.getByRole('button', { name: 'Review answers' }).click();
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await box.getByLabel('Weight (kg)').fill('3');
    await box.getByLabel('Boxes').fill('3');
    await box.getByRole('button', { name: 'Review answers' }).click();
    await box.getByRole('heading', { name: 'Check your answers' }).waitFor();
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await box.getByRole('button', { name: 'Decline' }).click();
    await waitForNoQuestion(page);
  });

  it('in the URL consent dialog, openable and refused', async () => {
    await callTool(page, 'sign_in');
    const box = dialog(page);
    await box.getByRole('button', { name: 'Open' }).waitFor();
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await box.getByRole('button', { name: 'Decline' }).click();
    await waitForNoQuestion(page);
    await callTool(page, 'bad_link');
    await box.getByRole('alert').waitFor();
    expect(describeViolations(await runAxe(page, box))).toBe('');
    await box.getByRole('button', { name: 'Cancel' }).click();
    await waitForNoQuestion(page);
  });

  it('on the whole page, with results and timelines', async () => {
    expect(describeViolations(await runAxe(page, page.locator('body')))).toBe('');
  });
});

describe('screen-reader names', () => {
  it('name the dialog after the server that asks, and the buttons exactly', async () => {
    await callTool(page, 'three_rounds');
    await waitForQuestion(page, 'What is your name?');
    const named = page.getByRole('dialog', { name: 'lab-fixture asks' });
    expect(await named.count()).toBe(1);
    expect(await named.getAttribute('aria-describedby')).toBeTruthy();
    const buttons = await named.getByRole('button').allTextContents();
    expect(buttons).toEqual(['Review answers', 'Decline', 'Cancel']);
    await named.getByLabel('Name').fill('Ada');
    await named.getByRole('button', { name: 'Review answers' }).click();
    await named.getByRole('heading', { name: 'Check your answers' }).waitFor();
    expect(await named.getByRole('button').allTextContents()).toEqual([
      'Accept',
      'Edit answers',
      'Decline',
      'Cancel',
    ]);
    await page.keyboard.press('Escape');
    await waitForNoQuestion(page);
    expect(await resultOf(page, 'three_rounds')).toContain('stopped at round 1: cancel');
  });

  it('name the URL dialog and its three buttons', async () => {
    await callTool(page, 'sign_in');
    const named = page.getByRole('dialog', { name: 'lab-fixture asks you to open a web page' });
    await named.waitFor();
    expect(await named.getByRole('button').allTextContents()).toEqual(['Open', 'Decline', 'Cancel']);
    await page.keyboard.press('Escape');
    await waitForNoQuestion(page);
    expect(await resultOf(page, 'sign_in')).toContain('sign_in: cancel');
  });
});

describe('keyboard only', () => {
  it('answers a three-round tool without the mouse, with focus where it should be', async () => {
    await page.getByRole('button', { name: 'Call three_rounds', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#call-panel').getByRole('heading', { name: 'Call tool three_rounds' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await activeElement()).toBe('button:Call tool:');
    await page.keyboard.press('Enter');

    await waitForQuestion(page, 'What is your name?');
    expect(await focusedLabel()).toBe('Name');
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await dialog(page).getByRole('heading', { name: 'Check your answers' }).waitFor();
    expect(await activeElement()).toMatch(/^h3:Check your answers/);
    await page.keyboard.press('Tab');
    expect(await activeElement()).toBe('button:Accept:');
    await page.keyboard.press('Enter');

    await waitForQuestion(page, 'Hello Ada. How many boxes?');
    expect(await focusedLabel()).toBe('Boxes');
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    expect(await dialog(page).locator('.parley-error').first().textContent()).toBe(
      'Enter a whole number between 1 and 3',
    );
    expect(await focusedLabel()).toBe('Boxes');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await dialog(page).getByRole('heading', { name: 'Check your answers' }).waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await activeElement()).toBe('button:Edit answers:');
    await page.keyboard.press('Enter');
    expect(await focusedLabel()).toBe('Boxes');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('2');
    await page.keyboard.press('Enter');
    await dialog(page).getByRole('heading', { name: 'Check your answers' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    await waitForQuestion(page, 'Book the pickup?');
    // A yes/no: focus on Yes, answered with one key.
    expect(await activeElement()).toBe('button:Yes:');
    // The page behind the modal dialog is inert: Tab cycles through the dialog (and the browser's
    // own controls, where the document has no focused element), never the page.
    const places = new Set<string>();
    for (let index = 0; index < 12; index += 1) {
      await page.keyboard.press('Tab');
      places.add(
        await page.evaluate(() => {
          const active = document.activeElement;
          if (!active || active === document.body) return 'browser';
          return document.querySelector('dialog')!.contains(active)
            ? 'dialog'
            : `page: ${active.outerHTML.slice(0, 80)}`;
        }),
      );
    }
    expect([...places].sort()).toEqual(['browser', 'dialog']);
    await dialog(page).getByRole('button', { name: 'Yes' }).focus();
    await screenshot(page, 'keyboard-yes-no');
    await page.keyboard.press('Enter');

    await waitForNoQuestion(page);
    expect(await activeElement()).toBe('button:Call tool:');
    expect(await resultOf(page, 'three_rounds')).toContain(
      'three_rounds: Ada booked 2 box(es), confirmed=true',
    );
  });
});
