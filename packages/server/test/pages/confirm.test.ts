import { createServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, textOf } from '../wire/handshake-client.js';
import { type InProcess, serveInProcess } from '../wire/in-process.js';
import { CAPABILITIES, callTool, type ModernReply } from '../wire/modern-envelope.js';
import { PagePerson } from '../wire/page-person.js';

// ctx.confirm: a yes/no field (never an empty form). With { proof: 'page' } only the page's answer,
// given by the signed-in user, confirms: an accept the client sends in-band does not.

const person = (request: Request) => /(?:^|;\s*)who=([a-z]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
const cancelled: string[] = [];
let served: InProcess;

beforeAll(async () => {
  const server = createServer({
    name: 'orders',
    version: '1.0.0',
    log: () => {},
    questionPages: { person, signIn: () => '/signin' },
  });
  server.tool('archive_order', {}, async (_args, ctx) => {
    const ok = await ctx.confirm('Archive order 7?', { key: 'sure' });
    return ok.confirmed ? 'Archived.' : `Not archived (${ok.action}).`;
  });
  server.tool('cancel_order', {}, async (_args, ctx) => {
    const ok = await ctx.confirm('Cancel order 42? This cannot be undone.', { key: 'sure', proof: 'page' });
    if (!ok.confirmed) return `Order 42 kept (${ok.action}).`;
    await ctx.once('cancel', () => {
      cancelled.push('42');
      return true;
    });
    return 'Order 42 cancelled.';
  });
  served = await serveInProcess(server);
});
afterAll(() => served?.close());

const resultOf = (reply: ModernReply) => {
  expect(reply.message.error).toBeUndefined();
  return reply.message.result!;
};
type Asked = Record<string, { params: { mode: string; url?: string; requestedSchema?: unknown } }>;

describe('ctx.confirm without proof', () => {
  it('is a boolean field in-band, and only a yes confirms', async () => {
    const first = resultOf(
      await callTool(served.wire, 'archive_order', {}, {}, { capabilities: CAPABILITIES.formOnly }),
    );
    const asked = (first.inputRequests as Asked).sure!;
    expect(asked.params).toMatchObject({
      mode: 'form',
      requestedSchema: {
        type: 'object',
        properties: { value: { type: 'boolean', title: 'Confirm' } },
        required: ['value'],
      },
    });
    const no = await callTool(
      served.wire,
      'archive_order',
      {},
      {
        requestState: first.requestState,
        inputResponses: { sure: { action: 'accept', content: { value: false } } },
      },
      { capabilities: CAPABILITIES.formOnly },
    );
    expect((resultOf(no).content as { text: string }[])[0]!.text).toBe('Not archived (accept).');
  });
});

describe("ctx.confirm with { proof: 'page' }", () => {
  it('does not take an accept sent in-band: only the signed-in user on the page confirms', async () => {
    const capabilities = CAPABILITIES.formAndUrl;
    const call = (round = {}) =>
      callTool(served.wire, 'cancel_order', {}, round, { capabilities, user: 'alice' });
    const first = resultOf(await call());
    const asked = (first.inputRequests as Asked).sure!;
    expect(asked.params.mode).toBe('url');

    // A client (or the agent behind it) answers by itself, with consent and even a forged "yes".
    const forged = resultOf(
      await call({
        requestState: first.requestState,
        inputResponses: { sure: { action: 'accept', content: { value: true } } },
      }),
    );
    expect(forged.resultType).toBe('input_required');
    expect(cancelled).toEqual([]);

    // Someone else's browser cannot confirm it either.
    const mallory = new PagePerson({ cookie: 'who=mallory' });
    expect((await mallory.open(asked.params.url!)).status).toBe(403);

    const alice = new PagePerson({ cookie: 'who=alice' });
    const answered = await alice.answer(asked.params.url!, { action: 'accept', content: { value: true } });
    expect(answered.island.confirm).toBe(true);
    const done = resultOf(
      await call({ requestState: forged.requestState, inputResponses: { sure: { action: 'accept' } } }),
    );
    expect((done.content as { text: string }[])[0]!.text).toBe('Order 42 cancelled.');
    expect(cancelled).toEqual(['42']);
  });

  it('is asked on the page on the 2025 eras too, even when the client shows forms', async () => {
    const client = await connectHandshake(
      { url: served.url, user: 'bob' },
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        answer: async (request) => {
          expect(request.params.mode).toBe('url');
          // The person declines on the page; the client only consented to open it.
          await new PagePerson({ cookie: 'who=bob' }).answer((request.params as { url: string }).url, {
            action: 'decline',
          });
          return { action: 'accept' };
        },
      },
    );
    expect(textOf(await client.callTool('cancel_order'))).toBe('Order 42 kept (decline).');
    await client.close();
  });

  it('is refused for an anonymous call, on both eras: a link its client holds is no proof (issue 41, finding 2)', async () => {
    const refusal = /A confirmation with proof must be given by the signed-in user: this call has no user/;
    const before = [...cancelled];
    // Before the fix, the page was a capability link: the client opened it, read its csrf token and
    // accepted by itself, and the order was cancelled with nobody at a browser.
    const modern = await callTool(
      served.wire,
      'cancel_order',
      {},
      {},
      { capabilities: CAPABILITIES.formAndUrl },
    );
    const result = resultOf(modern);
    expect(result.resultType).not.toBe('input_required');
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(refusal);

    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        answer: async (request) => {
          const url = (request.params as { url?: string }).url;
          if (url) await new PagePerson().answer(url, { action: 'accept', content: { value: true } });
          return { action: 'accept' };
        },
      },
    );
    const old = await client.callTool('cancel_order');
    expect(old.isError).toBe(true);
    expect(textOf(old)).toMatch(refusal);
    expect(client.received).toEqual([]);
    await client.close();
    expect(cancelled).toEqual(before);
  });
});
