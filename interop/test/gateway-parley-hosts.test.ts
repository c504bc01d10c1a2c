// Parley's own hosts asked by third-party upstreams through `parley gateway` (a real process):
// Parley's client, the `parley` CLI and the lab in Chromium, each on both eras, in front of FastMCP
// 4, the mcp Python SDK, a TS SDK v1 server, the raw TS SDK v2 server and a Parley server
// (gateway.ts says which speaks which era). Each test checks what the upstream reported, what the
// person was shown ("<upstream> asks: ...") and, for the client, the gateway's audit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, scripted } from '@parley/client';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotOf } from '../../packages/lab/test/helpers/browser.js';
import {
  callCard,
  callTool,
  dialog,
  resultOf,
  waitForNoQuestion,
} from '../../packages/lab/test/helpers/lab-page.js';
import { type Running, startLabProcess } from '../../packages/lab/test/helpers/processes.js';
import { PARLEY, type RunningGateway, startThirdPartyGateway } from './gateway.js';
import {
  type Action,
  actionsFor,
  auditOf,
  expectedAudit,
  type GatewayQuestion,
  outcomeOf,
  QUESTIONS,
} from './gateway-questions.js';
import { run } from './peers.js';

let running: { gateway: RunningGateway; stop(): Promise<void> };
beforeAll(async () => {
  running = await startThirdPartyGateway();
});
afterAll(async () => {
  await running?.stop();
});

const question = (tool: string): GatewayQuestion => QUESTIONS.find((entry) => entry.tool === tool)!;

/** The scripted person's answer to a question, as `scripted` and `parley call --answers` take it. */
function answerOf(asked: GatewayQuestion, action: Action): Record<string, unknown> {
  if (action !== 'accept') return { action };
  return asked.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: asked.content };
}

const ERAS = [
  ['modern', '2026-07-28', 0],
  ['handshake', '2025-11-25', 2],
] as const;

describe.each(ERAS)("Parley's client on the %s era", (era, revision, turn) => {
  it('every question of every upstream at once: what the upstream heard, what was shown, the audit', async () => {
    const actions = actionsFor(turn);
    const ui = scripted(
      Object.fromEntries(QUESTIONS.map((asked) => [asked.message, answerOf(asked, actions.get(asked)!)])),
    );
    const before = running.gateway.audit().length;
    const client = await connect(running.gateway.url, { ui, era });
    try {
      expect(client.protocolVersion).toBe(revision);
      const results = await Promise.all(QUESTIONS.map((asked) => client.callTool(asked.tool)));
      expect(results.map((result) => (result.content as { text: string }[])[0]?.text)).toEqual(
        QUESTIONS.map((asked) => outcomeOf(asked, actions.get(asked)!)),
      );
    } finally {
      await client.close();
    }
    expect([...ui.asked].map((record) => [record.message, record.mode, record.url]).sort()).toEqual(
      QUESTIONS.map((asked) => [asked.message, asked.mode, asked.url]).sort(),
    );
    expect(auditOf(running.gateway.audit().slice(before))).toEqual(expectedAudit(actions, revision));
  });
});

describe('the parley CLI (`parley call --answers`, no terminal)', () => {
  // One call per pairing and mode on each era, with every action.
  const CALLS = {
    modern: [
      ['fastmcp_confirm', 'decline'],
      ['tsv1_sign_in', 'accept'],
      ['tsv2_confirm', 'accept'],
      ['parley_sign_in', 'cancel'],
    ],
    handshake: [
      ['pysdk_confirm', 'cancel'],
      ['pysdk_sign_in', 'decline'],
      ['fastmcp_guard_name', 'accept'],
      ['tsv2_sign_in', 'accept'],
    ],
  } as const;

  it.each(['modern', 'handshake'] as const)('on the %s era', async (era) => {
    const dir = mkdtempSync(join(tmpdir(), 'interop-cli-'));
    for (const [tool, action] of CALLS[era]) {
      const asked = question(tool);
      // Keyed by the message as the person reads it: it matches only if that is what was shown.
      const file = join(dir, `${tool}.json`);
      writeFileSync(file, JSON.stringify({ [asked.message]: answerOf(asked, action) }));
      const result = await run(process.execPath, [
        PARLEY,
        'call',
        running.gateway.url,
        tool,
        '--era',
        era,
        '--answers',
        file,
      ]);
      expect([result.code, result.stdout.trim()], result.stderr).toEqual([0, outcomeOf(asked, action)]);
    }
    // With no answer for it, the CLI stops at the question and names it as the person would see it.
    const none = join(dir, 'none.json');
    writeFileSync(none, '{}');
    const unanswered = await run(process.execPath, [
      PARLEY,
      'call',
      running.gateway.url,
      'tsv1_confirm',
      '--era',
      era,
      '--answers',
      none,
    ]);
    expect(unanswered.code).toBe(2);
    expect(unanswered.stderr).toContain(
      '("ts-v1-peer asks: Go ahead?") from parley-gateway during tool "tsv1_confirm" (round 1)',
    );
  });
});

describe('the lab in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The text the newest call of `tool` returned (the card also shows the result as JSON). */
  async function resultText(page: Page, tool: string): Promise<string | null> {
    await resultOf(page, tool);
    return callCard(page, tool).locator('.outcome pre.text').first().textContent();
  }

  /** A lab of its own, connected to the gateway from the page on `era`. */
  async function openLab(era: 'modern' | 'handshake'): Promise<{ lab: Running; page: Page }> {
    const lab = await startLabProcess();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    context.setDefaultTimeout(60_000);
    await context.route('https://auth.example.com/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Sign-in</title><p>Signed in</p>',
      }),
    );
    await context.route('https://courier.example.com/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Courier</title><p>Connected</p>',
      }),
    );
    const page = await context.newPage();
    await page.goto(lab.url);
    await page.getByRole('textbox', { name: 'Server' }).fill(running.gateway.url);
    await page.getByLabel('Era').selectOption(era);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { name: /^parley-gateway / }).waitFor();
    await page.getByRole('heading', { name: /^Tools/ }).waitFor();
    return { lab, page };
  }

  it('on 2026-07-28: a FastMCP form held on a 2025 session, accepted; a TS SDK v1 link, opened and finished', async () => {
    const { lab, page } = await openLab('modern');
    try {
      await callTool(page, 'fastmcp_confirm');
      const box = dialog(page);
      await box.locator('.parley-message', { hasText: 'FastMCP shop asks: Go ahead?' }).waitFor();
      await screenshotOf(box, 'gateway-fastmcp-form-modern');
      // A yes/no, answered in one click.
      await box.getByRole('button', { name: 'Yes', exact: true }).click();
      await waitForNoQuestion(page);
      expect(await resultText(page, 'fastmcp_confirm')).toBe('true');

      await callTool(page, 'tsv1_sign_in');
      await box.getByRole('heading', { name: 'parley-gateway asks you to open a web page' }).waitFor();
      expect(await box.locator('.parley-message').textContent()).toBe('ts-v1-peer asks: Sign in to continue');
      expect(await box.locator('.url-full').textContent()).toBe('https://auth.example.com/start');
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        box.getByRole('button', { name: 'Open' }).click(),
      ]);
      await popup.waitForLoadState();
      expect(popup.url()).toBe('https://auth.example.com/start');
      const flow = callCard(page, 'tsv1_sign_in').getByRole('group', { name: 'Web page flow' });
      await flow.getByRole('button', { name: "I've finished" }).click();
      expect(await resultText(page, 'tsv1_sign_in')).toBe('accept');
      await popup.close();
    } finally {
      await page.context().close();
      await lab.stop();
    }
  });

  it('on 2025-11-25: a Parley form cancelled, a TS SDK v2 link declined', async () => {
    const { lab, page } = await openLab('handshake');
    try {
      await callTool(page, 'parley_confirm');
      const box = dialog(page);
      await box.locator('.parley-message', { hasText: 'parley-peer asks: Go ahead?' }).waitFor();
      // A yes/no's way to leave it unanswered (cancel) is Dismiss.
      await box.getByRole('button', { name: 'Dismiss' }).click();
      await waitForNoQuestion(page);
      expect(await resultText(page, 'parley_confirm')).toBe('cancel');

      await callTool(page, 'tsv2_sign_in');
      await box.getByRole('heading', { name: 'parley-gateway asks you to open a web page' }).waitFor();
      expect(await box.locator('.parley-message').textContent()).toBe(
        'Courier desk asks: Connect your courier account',
      );
      expect(await box.locator('.url-full').textContent()).toBe('https://courier.example.com/connect');
      await screenshotOf(box, 'gateway-tsv2-link-handshake');
      await box.getByRole('button', { name: 'Decline' }).click();
      await waitForNoQuestion(page);
      expect(await resultText(page, 'tsv2_sign_in')).toBe('decline');
    } finally {
      await page.context().close();
      await lab.stop();
    }
  });
});
