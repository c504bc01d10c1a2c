import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where the tests save screenshots: CI keeps this folder as an artifact. */
export const ARTIFACTS = fileURLToPath(new URL('../../../../.artifacts/renderer/', import.meta.url));

/** Debian's Chromium, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Saves a screenshot under .artifacts/renderer/. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
