// The guide's exercises on the built site, in Chromium: for each one, Check on the untouched starter
// says "Not yet" with the hint, and Check on the reference solution says "Right!". The sandbox runs
// the code in a worker of a frame with no origin and no network: it cannot reach the page, the
// site's storage, or anything on the network.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

// Issue 41, finding 8: the sandbox was a worker of the site's own origin, so exercise code could
// fetch any origin, open WebSockets, import remote modules (past the import allow-list with
// `new Function('return import(u)')`), and write the site's IndexedDB and CacheStorage.
describe('the sandbox, against code that tries to get out', () => {
  let listener: Server;
  let elsewhere: string;
  const reached: string[] = [];
  beforeAll(async () => {
    listener = createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      response.writeHead(200, {
        'content-type': 'text/javascript',
        'access-control-allow-origin': '*',
      });
      response.end('export const got = 1;');
    });
    listener.on('upgrade', (request, socket) => {
      reached.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    elsewhere = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('reaches no network and no storage of the site, and says what it tried', async () => {
    const exercise = box(ids[0]!);
    const attempt = (name: string, body: string) =>
      `try { ${body}; tried.${name} = 'got out'; } catch (error) { tried.${name} = 'refused'; }`;
    await exercise
      .locator('textarea')
      .fill(
        [
          'const tried: Record<string, string> = {};',
          `const http = 'http://${elsewhere}';`,
          attempt('fetch', "await fetch(http + '/fetch')"),
          attempt(
            'webSocket',
            "await new Promise((resolve, reject) => { const ws = new WebSocket('ws://" +
              elsewhere +
              "/ws'); ws.onopen = resolve; ws.onerror = reject; })",
          ),
          attempt('importFrom', "await import(http + '/import.js')"),
          attempt('functionImport', "await new Function('u', 'return import(u)')(http + '/function.js')"),
          attempt(
            'indexedDB',
            "await new Promise((resolve, reject) => { const open = indexedDB.open('exercise-db'); open.onsuccess = resolve; open.onerror = reject; })",
          ),
          attempt('cacheStorage', "await (await caches.open('exercise-cache')).put('/x', new Response('x'))"),
          'tried',
        ].join('\n'),
      );
    const verdict = await check(exercise);
    expect(verdict).toContain(
      'The last line is {"cacheStorage":"refused","fetch":"refused","functionImport":"refused",' +
        '"importFrom":"refused","indexedDB":"refused","webSocket":"refused"}',
    );
    expect(reached).toEqual([]);
    // Nothing was written to the site's own storage.
    const stored = await page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((database) => database.name),
      caches: await caches.keys(),
    }));
    expect(stored.databases).not.toContain('exercise-db');
    expect(stored.caches).not.toContain('exercise-cache');
    // The exercises still pass.
    await exercise.locator('.exercise-show-solution').click();
    expect(await check(exercise)).toMatch(/^Right!/);
  });

  it('runs in a frame of no origin, and takes an outcome only from it', async () => {
    const exercise = box(ids[0]!);
    await exercise
      .locator('textarea')
      .fill('await new Promise((resolve) => setTimeout(resolve, 1500));\n[location.origin, 42]');
    await exercise.locator('.exercise-check').click();
    const frame = page.locator('iframe.exercise-sandbox');
    await expect.poll(() => frame.count()).toBe(1);
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    // A verdict posted by anything but the frame (here the page itself) is not taken.
    await page.evaluate(() => window.postMessage({ ok: true, value: '"forged"' }, '*'));
    const verdict = exercise.locator('.exercise-verdict');
    await expect.poll(() => verdict.getAttribute('data-pass')).not.toBeNull();
    expect(((await verdict.textContent()) ?? '').replace(/\s+/g, ' ')).toContain(
      'The last line is ["null",42]',
    );
    await expect.poll(() => frame.count()).toBe(0);
  });
});
