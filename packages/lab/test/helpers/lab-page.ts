import type { Locator, Page } from 'playwright-core';

export type Era = 'modern' | 'handshake';

/** How the lab names each era in its server list. */
export const ERA_WORDS: Record<Era, string> = {
  modern: '2026-07-28 (modern)',
  handshake: 'handshake (2025)',
};

/** Connects a server from the page's own form and waits until its tools are listed. */
export async function connectFromPage(page: Page, target: string, era: Era | 'auto'): Promise<void> {
  await page.getByRole('textbox', { name: 'Server' }).fill(target);
  await page.getByLabel('Era').selectOption(era);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: 'lab-fixture 1.2.3' }).waitFor();
  await page.getByRole('heading', { name: /^Tools/ }).waitFor();
}

/**
 * Waits until `count` servers are listed and none is still connecting, then returns each one's
 * status as shown ("2026-07-28 (modern)", "handshake (2025)", "failed"). Each connection ends on its
 * own (the client's connect times out at 60 s), so a server that comes up wrong fails the test at
 * once with what it came up as, instead of a wait for a status that will never appear.
 */
export async function settledStatuses(page: Page, count: number): Promise<string[]> {
  await page
    .locator('.server-status')
    .nth(count - 1)
    .waitFor();
  await page
    .locator('.server-status.status-connecting')
    .first()
    .waitFor({ state: 'detached', timeout: 70_000 });
  return page.locator('.server-status').allTextContents();
}

/** The question dialog. */
export function dialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** Opens the call form of a tool and starts the call (with the form's arguments as filled by `fill`). */
export async function callTool(
  page: Page,
  name: string,
  fill?: (form: Locator) => Promise<void>,
): Promise<void> {
  await page.getByRole('button', { name: `Call ${name}`, exact: true }).click();
  const form = page.locator('#call-panel form');
  await form.getByRole('heading', { name: `Call tool ${name}` }).waitFor();
  if (fill) await fill(form);
  await form.getByRole('button', { name: 'Call tool' }).click();
}

/** The newest call card for a call name. */
export function callCard(page: Page, name: string): Locator {
  return page
    .locator('li.call')
    .filter({
      has: page.getByRole('heading', {
        name: new RegExp(`^(Tool|Prompt|Resource) ${escapeRegExp(name)} on `),
      }),
    })
    .first();
}

/** Waits until the newest call of `name` finished and returns its result text. */
export async function resultOf(page: Page, name: string): Promise<string> {
  const card = callCard(page, name);
  await card.locator('.outcome > *').first().waitFor();
  return (await card.locator('.outcome').textContent()) ?? '';
}

/** The lines of the newest call's timeline. */
export async function timelineOf(page: Page, name: string): Promise<string[]> {
  return callCard(page, name).locator('.timeline li').allTextContents();
}

/** Goes from the fields to the review step and accepts. */
export async function reviewAndAccept(page: Page): Promise<void> {
  const box = dialog(page);
  await box.getByRole('button', { name: 'Review answers' }).click();
  await box.getByRole('heading', { name: 'Check your answers' }).waitFor();
  await box.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** Waits until the dialog shows a question with this message. */
export async function waitForQuestion(page: Page, message: string | RegExp): Promise<Locator> {
  const box = dialog(page);
  await box.locator('.parley-message', { hasText: message }).waitFor();
  return box;
}

/** Waits until no question is shown. */
export async function waitForNoQuestion(page: Page): Promise<void> {
  await dialog(page).waitFor({ state: 'hidden' });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
