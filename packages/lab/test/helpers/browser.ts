import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, PROCESS_START_TIMEOUT_MS } from '@parley/testing';
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';

/** Where the tests save screenshots: CI keeps this folder as an artifact. */
export const ARTIFACTS = fileURLToPath(new URL('../../../../.artifacts/lab/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Opens the lab in a fresh context (Paris time, so date-times carry a real offset). */
export async function openLab(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: 'Europe/Paris',
    locale: 'en-US',
    ...options,
  });
  // The lab starts a process for each stdio server it connects (at start, or from the page's form),
  // so what a test waits for on the page may include a process start: it gets as long as one.
  context.setDefaultTimeout(PROCESS_START_TIMEOUT_MS);
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(url);
  // The list of servers is the lab's once its first snapshot arrived; before, a count of it reads 0.
  await page.locator('#server-list:not([aria-busy])').waitFor({ state: 'attached' });
  return page;
}

/** Saves a screenshot under .artifacts/lab/. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** Saves a screenshot of one element (a dialog) under .artifacts/lab/. */
export async function screenshotOf(element: Locator, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await element.screenshot({ path });
  return path;
}
