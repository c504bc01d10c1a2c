import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, openLab } from './browser.js';
import { ERA_WORDS, settledStatuses } from './lab-page.js';
import { type Running, STDIO_FIXTURE, startHttpFixture, startLabProcess } from './processes.js';

/** A lab connected to two fixture servers that share a name: one over stdio, one over HTTP. */
export interface TwoServerLab {
  readonly browser: Browser;
  readonly lab: Running & { url: string };
  readonly fixture: Running & { url: string };
  readonly page: Page;
  stop(): Promise<void>;
}

export async function startTwoServerLab(): Promise<TwoServerLab> {
  const browser = await launchChromium();
  const fixture = await startHttpFixture();
  const lab = await startLabProcess([STDIO_FIXTURE, fixture.url, '--era', 'modern']);
  const page = await openLab(browser, lab.url);
  // The era is pinned: on "auto" a stdio server slower to start than the client's 10 s discover probe
  // (as on a loaded machine) is taken for a handshake-era server, and these tests are not about that.
  expect(await settledStatuses(page, 2)).toEqual([ERA_WORDS.modern, ERA_WORDS.modern]);
  return {
    browser,
    lab,
    fixture,
    page,
    async stop() {
      await browser.close();
      await lab.stop();
      await fixture.stop();
    },
  };
}
