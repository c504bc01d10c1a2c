import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { CHROMIUM_ARGS } from '@parley/testing';
import { runAxe } from '@parley/testing/axe';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, freshDataDir, startBrightgridProcess } from './processes.js';

// "Reach every person", as a person meets it: Brightgrid runs as a real process; the clients are
// real MCP clients that declare URL mode only, no elicitation at all, or forms they then fail to
// show; the person answers on Brightgrid's own question page in a real Chromium, signed in to the
// store as themselves. On 2026-07-28 and on 2025-11-25 (and 2025-06-18 for a multi-select).

const ARTIFACTS = fileURLToPath(new URL('../../../.artifacts/brightgrid/', import.meta.url));
const MODERN = '2026-07-28';

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

let brightgrid: BrightgridProcess;
let browser: Browser;
const people = new Map<string, BrowserContext>();

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  brightgrid = await startBrightgridProcess(freshDataDir());
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  const stopped = await brightgrid?.process.stop();
  if (stopped) expect(stopped.code).toBe(0);
});

/** A person's browser, signed in to the store (its own session cookie), kept across tests. */
async function browserOf(user: 'alice' | 'bob'): Promise<BrowserContext> {
  let context = people.get(user);
  if (context) return context;
  context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto(`${brightgrid.origin}/signin?return_to=/`);
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(user === 'alice' ? 'wonderland' : 'bricklayer');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${brightgrid.origin}/`);
  await page.close();
  people.set(user, context);
  return context;
}

/** Opens a question page in the person's browser; resolves once its question shows (a form, or a yes/no). */
async function openQuestion(user: 'alice' | 'bob', url: string): Promise<Page> {
  const page = await (await browserOf(user)).newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text()))
      violations.push(message.text());
  });
  await page.goto(url);
  await page.locator('.parley-elicitation').waitFor();
  expect(violations).toEqual([]);
  return page;
}

/** Reviews and accepts the form on a question page, and waits for the page to say it is sent. */
async function acceptOnPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Review answers' }).click();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await page.getByText(/reached Brightgrid/).waitFor();
}

/** Fills Brightgrid's return form as a person would. */
async function fillReturnForm(page: Page, pickup: string): Promise<void> {
  await page.getByLabel('Reason for the return').selectOption('Broken');
  await page.getByLabel('Boxes').fill('2');
  await page.getByLabel('Pickup date').fill(pickup);
}

/** Brightgrid's database, read by the test the way the store reads it. */
function returnsOf(user: string): number {
  const db = new Database(join(brightgrid.dataDir, 'brightgrid.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM returns WHERE user = ?').get(user) as { n: number }).n;
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// A 2026-07-28 client: each request its own POST with the capabilities it declares.

interface ModernResult {
  readonly resultType?: string;
  readonly inputRequests?: Record<string, { params: { mode: string; url?: string; message: string } }>;
  readonly requestState?: string;
  readonly content?: { type: string; text: string }[];
  readonly _meta?: Record<string, unknown>;
}

async function modernCall(
  name: string,
  args: Record<string, unknown>,
  capabilities: ClientCapabilities,
  round: { requestState?: string; inputResponses?: Record<string, unknown> } = {},
  user: 'alice' | 'bob' = 'alice',
): Promise<ModernResult> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      ...round,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 'reach-test', version: '1.0.0' },
      },
    },
  };
  const response = await fetch(brightgrid.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      authorization: `Bearer ${brightgrid.tokens[user]}`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = text.startsWith('{')
    ? JSON.parse(text)
    : JSON.parse(
        text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5))
          .find((line) => line.includes('"id":1'))!,
      );
  if (json.error) throw new Error(`${json.error.code} ${json.error.message}`);
  return json.result as ModernResult;
}

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');

function pageLinkIn(text: string): string {
  const match = /https?:\/\/\S+\/parley\/questions\/[A-Za-z0-9_-]{43}/.exec(text);
  if (!match) throw new Error(`no question page link in: ${text}`);
  return match[0];
}

// ---------------------------------------------------------------------------------------------
// A 2025 client: the official SDK over a session, with what it declares and how it answers.

async function handshakeClient(
  capabilities: ClientCapabilities,
  protocolVersion: '2025-06-18' | '2025-11-25',
  answer?: (request: ElicitRequest) => Promise<ElicitResult>,
  user: 'alice' | 'bob' = 'alice',
): Promise<Client> {
  const client = new Client(
    { name: 'reach-test-2025', version: '1.0.0' },
    { capabilities, supportedProtocolVersions: [protocolVersion] },
  );
  if (answer) client.setRequestHandler('elicitation/create', (request) => answer(request));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(brightgrid.url), {
      requestInit: { headers: { authorization: `Bearer ${brightgrid.tokens[user]}` } },
    }),
  );
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('book_return reaches every kind of client (2026-07-28)', () => {
  it('a client that declares URL mode only: the person answers on the page', async () => {
    const before = returnsOf('alice');
    const pickup = daysFromNow(5);
    const url = { elicitation: { url: {} } };
    const first = await modernCall('book_return', { n: 1 }, url);
    const question = first.inputRequests!.return!;
    expect(question.params.mode).toBe('url');
    expect(question.params.url!.startsWith(`${brightgrid.origin}/parley/questions/`)).toBe(true);

    const page = await openQuestion('alice', question.params.url!);
    await page
      .getByRole('heading', { name: /Brightgrid store asks/ })
      .first()
      .waitFor();
    await fillReturnForm(page, pickup);
    // docs/images/question-page.png is a copy of this screenshot.
    await page.screenshot({ path: join(ARTIFACTS, 'question-page-book-return.png'), fullPage: true });
    expect(await runAxe(page, page.locator('body'))).toEqual([]);
    await acceptOnPage(page);

    const done = await modernCall('book_return', { n: 1 }, url, {
      requestState: first.requestState!,
      inputResponses: { return: { action: 'accept' } },
    });
    expect(textOf(done)).toMatch(
      new RegExp(`Return #\\d+ booked \\(Broken\\): the courier collects 2 boxes on ${pickup}`),
    );
    expect(returnsOf('alice')).toBe(before + 1);
  });

  it('a client that declares no elicitation: the link in the result, the same call again', async () => {
    const before = returnsOf('alice');
    const pickup = daysFromNow(6);
    const first = await modernCall('book_return', { n: 2 }, {});
    const link = pageLinkIn(textOf(first));
    expect(textOf(first)).toContain('call book_return again with the same arguments');

    const page = await openQuestion('alice', link);
    await fillReturnForm(page, pickup);
    await acceptOnPage(page);
    // The page tells the person what to do next: ask the app to make the same request again.
    await page.getByText(/make the same request again/).waitFor();

    const done = await modernCall('book_return', { n: 2 }, {});
    expect(textOf(done)).toMatch(new RegExp(`collects 2 boxes on ${pickup}`));
    // Made again, the finished call is a new one: nothing is booked twice.
    const fresh = await modernCall('book_return', { n: 2 }, {});
    expect(pageLinkIn(textOf(fresh))).not.toBe(link);
    expect(returnsOf('alice')).toBe(before + 1);
  });
});

describe('book_return reaches every kind of client (2025-11-25)', () => {
  it('a client that declares URL mode only', async () => {
    const before = returnsOf('alice');
    const pickup = daysFromNow(7);
    const client = await handshakeClient({ elicitation: { url: {} } }, '2025-11-25', async (request) => {
      expect(request.params.mode).toBe('url');
      const page = await openQuestion('alice', (request.params as { url: string }).url);
      await fillReturnForm(page, pickup);
      await acceptOnPage(page);
      return { action: 'accept' };
    });
    expect(textOf(await call(client, 'book_return'))).toMatch(new RegExp(`collects 2 boxes on ${pickup}`));
    expect(returnsOf('alice')).toBe(before + 1);
    await client.close();
  });

  it('a client that declares no elicitation', async () => {
    const before = returnsOf('alice');
    const pickup = daysFromNow(8);
    const client = await handshakeClient({}, '2025-11-25');
    const link = pageLinkIn(textOf(await call(client, 'book_return')));
    const page = await openQuestion('alice', link);
    await fillReturnForm(page, pickup);
    await acceptOnPage(page);
    expect(textOf(await call(client, 'book_return'))).toMatch(new RegExp(`collects 2 boxes on ${pickup}`));
    expect(returnsOf('alice')).toBe(before + 1);
    await client.close();
  });

  it('a client that declares forms, then fails elicitation/create', async () => {
    const before = returnsOf('alice');
    const pickup = daysFromNow(9);
    // No handler: the SDK client answers every elicitation/create with -32601 Method not found.
    const client = await handshakeClient({ elicitation: { form: {} } }, '2025-11-25');
    const first = await call(client, 'book_return');
    expect(first.isError).toBeFalsy();
    const page = await openQuestion('alice', pageLinkIn(textOf(first)));
    await fillReturnForm(page, pickup);
    await acceptOnPage(page);
    expect(textOf(await call(client, 'book_return'))).toMatch(new RegExp(`collects 2 boxes on ${pickup}`));
    expect(returnsOf('alice')).toBe(before + 1);
    await client.close();
  });

  it('a multi-select reaches a 2025-06-18 client’s person too', async () => {
    const client = await handshakeClient({ elicitation: {} }, '2025-06-18', async () => ({
      action: 'cancel',
    }));
    const link = pageLinkIn(textOf(await call(client, 'select_tags', { sku: 'BG-300' })));
    const page = await openQuestion('alice', link);
    const tags = page.getByRole('group', { name: /Tags/ });
    await tags.getByLabel('Gift idea').check();
    await tags.getByLabel('New arrival').check();
    await acceptOnPage(page);
    expect(textOf(await call(client, 'select_tags', { sku: 'BG-300' }))).toBe(
      'Smart plug (BG-300) is now tagged: Gift idea, New arrival.',
    );
    await client.close();
  });
});

describe('question pages answer only the right person, once', () => {
  it('another user’s browser gets a 403; a second submission is refused', async () => {
    const first = await modernCall('book_return', { n: 3 }, {});
    const link = pageLinkIn(textOf(first));
    const bob = await (await browserOf('bob')).newPage();
    const refused = await bob.goto(link);
    expect(refused?.status()).toBe(403);
    expect(await bob.getByRole('heading').first().textContent()).toBe('This link is for another account');

    const page = await openQuestion('alice', link);
    await fillReturnForm(page, daysFromNow(10));
    await acceptOnPage(page);
    // The same page again (the back button, a second tab): used.
    const again = await (await browserOf('alice')).newPage();
    expect((await again.goto(link))?.status()).toBe(410);
  });
});

describe('link_courier_account: the key stays secret', () => {
  it('reaches the handler, and nothing the client, the log or the store holds in the clear', async () => {
    const key = `ck_live_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    const capabilities = { elicitation: { form: {}, url: {} } };
    const first = await modernCall('link_courier_account', {}, capabilities);
    const question = first.inputRequests!.courier_key!;
    expect(question.params.mode).toBe('url');

    const page = await openQuestion('alice', question.params.url!);
    const field = page.getByLabel('Courier API key', { exact: true });
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(key);
    await page.getByRole('button', { name: 'Review answers' }).click();
    expect(await page.locator('#parley-question-page').textContent()).not.toContain(key);
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await page.getByText(/reached Brightgrid/).waitFor();

    const done = await modernCall('link_courier_account', {}, capabilities, {
      requestState: first.requestState!,
      inputResponses: { courier_key: { action: 'accept' } },
    });
    expect(textOf(done)).toBe('Courier account linked for Alice Liddell.');
    const everything = JSON.stringify([first, done]);
    expect(everything).not.toContain(key);
    expect(brightgrid.process.stderr.join('\n')).not.toContain(key);
    expect(brightgrid.process.lines.join('\n')).not.toContain(key);
    const db = new Database(join(brightgrid.dataDir, 'brightgrid.sqlite'), { readonly: true });
    try {
      const row = db.prepare('SELECT * FROM courier_links WHERE user = ?').get('alice') as Record<
        string,
        unknown
      >;
      expect(row.key_characters).toBe(key.length);
      expect(JSON.stringify(row)).not.toContain(key);
    } finally {
      db.close();
    }
  });
});

describe('cancel_order: only the page confirms', () => {
  it('an accept the client sends in-band cancels nothing; the signed-in person on the page does', async () => {
    const capabilities = { elicitation: { form: {}, url: {} } };
    const first = await modernCall('cancel_order', { order: 1002 }, capabilities);
    const question = first.inputRequests!.confirm_cancel!;
    expect(question.params.mode).toBe('url');

    // The client (or the agent behind it) says yes by itself.
    const forged = await modernCall('cancel_order', { order: 1002 }, capabilities, {
      requestState: first.requestState!,
      inputResponses: { confirm_cancel: { action: 'accept', content: { value: true } } },
    });
    expect(forged.resultType).toBe('input_required');
    const status = () => {
      const db = new Database(join(brightgrid.dataDir, 'brightgrid.sqlite'), { readonly: true });
      try {
        return (db.prepare('SELECT status FROM orders WHERE id = 1002').get() as { status: string }).status;
      } finally {
        db.close();
      }
    };
    expect(status()).toBe('open');

    // Bob cannot confirm alice's cancellation.
    const bob = await (await browserOf('bob')).newPage();
    expect((await bob.goto(question.params.url!))?.status()).toBe(403);

    const page = await openQuestion('alice', question.params.url!);
    // A yes/no, answered in one click; dismissing it is never called "Cancel" beside "Cancel this order?".
    const buttons = page.getByRole('group', { name: 'Cancel this order?' }).getByRole('button');
    expect(await buttons.allTextContents()).toEqual(['Yes', 'No', 'Dismiss']);
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText(/reached Brightgrid/).waitFor();
    const done = await modernCall('cancel_order', { order: 1002 }, capabilities, {
      requestState: forged.requestState!,
      inputResponses: { confirm_cancel: { action: 'accept' } },
    });
    expect(textOf(done)).toBe('Order #1002 cancelled; €24 will be refunded.');
    expect(status()).toBe('cancelled');
  });
});
