import type { FlowActions, FlowRecord } from '@parley/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db.js';
import { connectPage } from './connect-page.js';
import { WebSessions } from './session.js';

const ORIGIN = 'http://127.0.0.1:4100';
const FLOW_URL = `${ORIGIN}/connect/flow-id`;
let store: Store;
let sessions: WebSessions;
let completed: unknown[];

const flow: FlowRecord = {
  id: 'flow-id',
  kind: 'store-account',
  principal: 'alice',
  server: 'brightgrid',
  data: { client: '<b>Evil</b> Host' },
  createdAt: 0,
  expiresAt: Number.MAX_SAFE_INTEGER,
  status: 'pending',
};
const actions: FlowActions = {
  complete: async (result: unknown) => {
    completed.push(result);
    return true;
  },
  fail: async () => true,
};

beforeEach(() => {
  store = openStore({ dir: ':memory:' });
  sessions = new WebSessions(store, ORIGIN);
  completed = [];
});
afterEach(() => store.close());

function decide(session: { id: string }, fields: Record<string, string>, origin = ORIGIN) {
  return connectPage(store, sessions)(
    new Request(FLOW_URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `brightgrid_session=${session.id}`,
        origin,
      },
      body: new URLSearchParams(fields).toString(),
    }),
    flow,
    actions,
  );
}

describe('the store connect page', () => {
  it('names the asking app as escaped text and carries the session’s anti-CSRF token', async () => {
    const session = store.startWebSession('alice');
    const response = await connectPage(store, sessions)(
      new Request(FLOW_URL, { headers: { cookie: `brightgrid_session=${session.id}` } }),
      flow,
      actions,
    );
    const html = await response.text();
    expect(html).toContain(
      '<strong>&lt;b&gt;Evil&lt;/b&gt; Host</strong> asks to use your Brightgrid account',
    );
    expect(html).toContain(`name="csrf" value="${session.csrf}"`);
    expect(completed).toEqual([]);
  });

  it('records the link and completes the flow when the person allows it', async () => {
    const session = store.startWebSession('alice');
    const response = await decide(session, { csrf: session.csrf, decision: 'allow' });
    expect(response.status).toBe(200);
    expect(completed).toEqual([
      { connected: true, account: 'alice', displayName: 'Alice Liddell', linkedAt: expect.any(String) },
    ]);
    expect(store.storeLink('alice')?.client).toBe('<b>Evil</b> Host');
  });

  it('completes the flow as not connected when the person denies it', async () => {
    const session = store.startWebSession('alice');
    await decide(session, { csrf: session.csrf, decision: 'deny' });
    expect(completed).toEqual([{ connected: false }]);
    expect(store.storeLink('alice')).toBeUndefined();
  });

  it.each([
    { case: 'a forged token', csrf: 'forged', origin: ORIGIN },
    { case: 'another site', csrf: undefined, origin: 'http://127.0.0.1:9999' },
  ])('changes nothing for a POST with $case', async ({ csrf, origin }) => {
    const session = store.startWebSession('alice');
    const response = await decide(session, { csrf: csrf ?? session.csrf, decision: 'allow' }, origin);
    expect(response.status).toBe(403);
    expect(completed).toEqual([]);
    expect(store.storeLink('alice')).toBeUndefined();
  });
});
