// Third-party hosts asked by third-party upstreams through `parley gateway` (a real process): the
// TypeScript SDK v1 Client, the mcp Python SDK's ClientSession, FastMCP's Client and the MCP
// Inspector's CLI, in front of FastMCP 4, the mcp Python SDK, a TS SDK v1 server, the raw TS SDK v2
// server and a Parley server (gateway.ts says which speaks which era). Each test checks what the
// upstream reported (its tool's result), what the person was shown ("<upstream> asks: ...") and the
// gateway's audit (the pairing it crossed, the mode, the outcome).
//
// Where a peer cannot do something:
// - The TS SDK v1 Client and the Python SDK's ClientSession speak the 2025 revisions only
//   (2025-11-25): they are 2025 hosts. FastMCP's Client picks 2026-07-28: a 2026 host.
// - The Inspector CLI (2.12) declares no elicitation at all (only roots), so it cannot answer a
//   question: it gets the gateway's question page link in the tool's result, a person answers in
//   the browser (Chromium here), and the same call made again goes on. That works on 2026-07-28
//   (`--protocol-era modern`). On its default 2025 era every CLI run opens a new session, and a
//   2025 host without a sign-in is known only by its session: the next run is a new caller, so it
//   gets a new question (shown below). An upstream that checks the client's capabilities (the TS
//   SDK v1 server does) hears exactly what the Inspector declared, no elicitation, and refuses.
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS } from '@parley/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startThirdPartyGateway } from './gateway.js';
import {
  type Action,
  actionsFor,
  auditOf,
  expectedAudit,
  type GatewayQuestion,
  outcomeOf,
  planFor,
  QUESTIONS,
  type Revision,
} from './gateway-questions.js';
import { type PythonReport, peer, run, runPythonClient } from './peers.js';

const INSPECTOR = fileURLToPath(
  new URL(
    '../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
    import.meta.url,
  ),
);

let running: { gateway: RunningGateway; stop(): Promise<void> };
let browser: Browser;
beforeAll(async () => {
  [running, browser] = await Promise.all([
    startThirdPartyGateway(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await running?.stop();
});

/** Checks one host's run of every question against the table: results, what was shown, the audit. */
function checkRun(
  report: PythonReport,
  actions: ReadonlyMap<GatewayQuestion, Action>,
  host: Revision,
  auditBefore: number,
): void {
  expect(report.protocol).toBe(host);
  expect(report.results.map((result) => result.error ?? result.text)).toEqual(
    QUESTIONS.map((question) => outcomeOf(question, actions.get(question)!)),
  );
  // Each question shown once, as the upstream asked it, prefixed with who asks.
  const shown = [...report.asked].sort((a, b) => a.message.localeCompare(b.message));
  const expected = [...QUESTIONS].sort((a, b) => a.message.localeCompare(b.message));
  expect(shown.map((question) => [question.message, question.mode ?? 'form', question.url])).toEqual(
    expected.map((question) => [question.message, question.mode, question.url]),
  );
  expect(auditOf(running.gateway.audit().slice(auditBefore))).toEqual(expectedAudit(actions, host));
}

describe('third-party hosts, every question of every upstream at once', () => {
  it('the TypeScript SDK v1 Client (a 2025-11-25 host)', async () => {
    const actions = actionsFor(0);
    const before = running.gateway.audit().length;
    const result = await run(process.execPath, [
      peer('ts-v1-client.mjs'),
      running.gateway.url,
      JSON.stringify(planFor(actions)),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as PythonReport;
    checkRun(report, actions, '2025-11-25', before);
  });

  it("the mcp Python SDK's ClientSession (a 2025-11-25 host)", async () => {
    const actions = actionsFor(1);
    const before = running.gateway.audit().length;
    const report = await runPythonClient('sdk', running.gateway.url, planFor(actions));
    checkRun(report, actions, '2025-11-25', before);
  });

  it("FastMCP's Client (a 2026-07-28 host)", async () => {
    const actions = actionsFor(2);
    const before = running.gateway.audit().length;
    const report = await runPythonClient('fastmcp', running.gateway.url, planFor(actions));
    checkRun(report, actions, '2026-07-28', before);
  });
});

/** Runs the Inspector's CLI once (`tools/call`) and returns the tool's result. */
async function inspectorCall(
  tool: string,
  era: 'modern' | 'legacy',
): Promise<{ text: string; isError: boolean; pages: { key: string; url: string; message: string }[] }> {
  const result = await run(process.execPath, [
    INSPECTOR,
    '--cli',
    running.gateway.url,
    '--protocol-era',
    era,
    '--method',
    'tools/call',
    '--tool-name',
    tool,
    '--format',
    'json',
  ]);
  const line = result.stdout.split('\n').find((text) => text.startsWith('{"result"'));
  if (line === undefined)
    throw new Error(`the Inspector printed no result (${result.code}): ${result.stderr}`);
  const { result: outcome } = JSON.parse(line) as {
    result: { content: { text?: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
  };
  return {
    text: outcome.content.map((block) => block.text ?? '').join(''),
    isError: outcome.isError === true,
    pages: (outcome._meta?.['dev.parley/pages'] ?? []) as { key: string; url: string; message: string }[],
  };
}

/** What the page says once it sent the answer. */
const DONE = { accept: 'Answer sent', decline: 'Declined', cancel: 'Cancelled' } as const;

/** A person opens a question page in Chromium, reads it, and answers it. Returns what it showed. */
async function answerOnPage(url: string, question: GatewayQuestion, action: Action): Promise<string> {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('.parley-elicitation').waitFor();
    const shown = (await page.locator('.parley-message').textContent()) ?? '';
    const yesNo = page.locator('.parley-yes-no');
    if ((await yesNo.count()) > 0) {
      // A yes/no (one boolean field) is answered in one click: Yes, No, or Dismiss (cancel).
      const [value] = Object.values(question.content ?? {});
      const button =
        action === 'accept' ? (value === true ? 'Yes' : 'No') : action === 'cancel' ? 'Dismiss' : undefined;
      if (button === undefined) throw new Error(`A yes/no page has no way to ${action}: answer it with No.`);
      await yesNo.getByRole('button', { name: button, exact: true }).click();
    } else if (action === 'accept') {
      for (const [name, value] of Object.entries(question.content ?? {})) {
        const field = page.locator('form.parley-elicitation').getByLabel(new RegExp(`^${name}$`, 'i'));
        if (typeof value === 'boolean') await field.setChecked(value);
        else await field.fill(String(value));
      }
      await page.getByRole('button', { name: 'Review answers' }).click();
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
    } else {
      await page
        .getByRole('button', { name: action === 'decline' ? 'Decline' : 'Cancel', exact: true })
        .click();
    }
    await page.getByRole('heading', { name: DONE[action] }).waitFor();
    return shown;
  } finally {
    await context.close();
  }
}

const question = (tool: string): GatewayQuestion => QUESTIONS.find((entry) => entry.tool === tool)!;

describe('the MCP Inspector CLI (it declares no elicitation)', () => {
  it.each([
    ['fastmcp_guard_name', 'accept'],
    ['pysdk_confirm', 'decline'],
    ['fastmcp_confirm', 'cancel'],
  ] as const)(
    'on 2026-07-28: %s gets a page link; answered there (%s), the same call goes on',
    async (tool, action) => {
      const asked = question(tool);
      const before = running.gateway.audit().length;
      const first = await inspectorCall(tool, 'modern');
      expect(first.isError).toBe(true);
      expect(first.pages).toEqual([expect.objectContaining({ message: asked.message })]);
      const link = first.pages[0]!.url;
      expect(first.text).toContain(`- ${asked.message}\n  Answer here: ${link}`);
      expect(await answerOnPage(link, asked, action)).toBe(asked.message);
      const second = await inspectorCall(tool, 'modern');
      expect([second.text, second.isError]).toEqual([outcomeOf(asked, action), false]);
      expect(running.gateway.audit().slice(before)).toEqual([
        expect.objectContaining({
          name: tool,
          pairing: `2026-07-28 > ${asked.upstream}`,
          outcome: action,
          fallback: 'page',
        }),
      ]);
    },
  );

  it('on its default 2025 era: a link each run (a new session each time), and a refusal from an upstream that checks', async () => {
    const asked = question('fastmcp_confirm');
    const first = await inspectorCall('fastmcp_confirm', 'legacy');
    expect(first.pages).toEqual([expect.objectContaining({ message: asked.message })]);
    // The page shows the question; the answer reaches the call held for that run's session.
    expect(await answerOnPage(first.pages[0]!.url, asked, 'accept')).toBe(asked.message);
    const second = await inspectorCall('fastmcp_confirm', 'legacy');
    expect(second.pages).toEqual([expect.objectContaining({ message: asked.message })]);
    expect(second.pages[0]!.url).not.toBe(first.pages[0]!.url);

    const refused = await inspectorCall('tsv1_confirm', 'legacy');
    expect([refused.text, refused.isError]).toEqual(['Client does not support form elicitation.', true]);
  });

  it('on 2026-07-28: an upstream that checks capabilities (the TS SDK v2 server) refuses to ask', async () => {
    await expect(inspectorCall('tsv2_confirm', 'modern')).rejects.toThrow(
      "Cannot request input 'ship' (elicitation/create): the request's client capabilities do not declare the required capability",
    );
  });
});
