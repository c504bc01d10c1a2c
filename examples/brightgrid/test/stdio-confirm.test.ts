import { join } from 'node:path';
import { connect, type ElicitationUI } from '@parley/client';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDataDir, stdioCommand } from './processes.js';

// cancel_order over stdio (issue 41, finding 2): the confirmation page was a link anyone holding it
// could answer, and the client holds every link it is sent. An agent opened it, read the csrf
// token and accepted, and the order was cancelled with nobody at a browser. Now the page is bound
// to the local user (alice), checked against the store's own sign-in in the browser.

const dataDir = freshDataDir();

function orderStatus(id: number): string {
  const db = new Database(join(dataDir, 'brightgrid.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM orders WHERE id = ?').get(id) as { status: string }).status;
  } finally {
    db.close();
  }
}

/** Signs alice in to the store's pages at `origin` over plain HTTP: her session cookie. */
async function aliceCookie(origin: string): Promise<string> {
  const form = await fetch(`${origin}/signin?return_to=/`);
  const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const response = await fetch(`${origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: csrfCookie },
    body: new URLSearchParams({ csrf, return_to: '/', username: 'alice', password: 'wonderland' }).toString(),
  });
  expect(response.status).toBe(303);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Opens a question page and answers it yes, as its script does; the status of each step. */
async function answerYes(link: string, cookie?: string): Promise<{ opened: number; answered?: number }> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const page = await fetch(link, { headers, redirect: 'manual' });
  const island = /<script type="application\/json" id="parley-question">([^<]*)<\/script>/.exec(
    await page.text(),
  );
  if (!island) return { opened: page.status };
  const { csrf, answerUrl } = JSON.parse(island[1]!) as { csrf: string; answerUrl: string };
  const answered = await fetch(answerUrl, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json',
      origin: new URL(link).origin,
      'sec-fetch-site': 'same-origin',
    },
    body: JSON.stringify({ csrf, action: 'accept', content: { value: true } }),
  });
  return { opened: page.status, answered: answered.status };
}

const clients: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

describe.each([
  ['2026-07-28', 'modern', 1001],
  ['2025-11-25', 'handshake', 1002],
] as const)('cancel_order over stdio, %s', (_revision, era, order) => {
  it('an agent holding the link cannot confirm; alice, signed in on the page, can', async () => {
    const agent: { opened?: number; answered?: number }[] = [];
    const ui: ElicitationUI = {
      modes: { form: false, url: true },
      form: async () => ({ action: 'decline' }),
      url: async (request) => {
        // The agent behind the client opens the link itself and says yes, with nobody at a browser.
        agent.push(await answerYes(request.url));
        expect(orderStatus(order)).toBe('open');
        // Then alice, signed in to the store, confirms on the same page.
        const alice = await answerYes(request.url, await aliceCookie(new URL(request.url).origin));
        expect(alice).toEqual({ opened: 200, answered: 200 });
        return { action: 'accept' };
      },
    };
    const client = await connect(stdioCommand(), {
      ui,
      era,
      env: { BRIGHTGRID_DATA: dataDir, BRIGHTGRID_USER: 'alice' },
      stderr: 'ignore',
    });
    clients.push(client);
    const result = await client.callTool('cancel_order', { order });
    expect(agent).toHaveLength(1);
    // Sent to sign in, with no question (and no csrf token) on the page.
    expect(agent[0]).toEqual({ opened: 303 });
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      new RegExp(`^Order #${order} cancelled; €\\d+ will be refunded\\.$`),
    );
    expect(orderStatus(order)).toBe('cancelled');
  });
});
