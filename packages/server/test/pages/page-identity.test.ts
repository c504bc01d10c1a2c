import { ask, createServer, type ParleyServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, serveInProcess } from '../wire/in-process.js';
import {
  CAPABILITIES,
  callTool,
  type ModernReply,
  resumeTokenOf,
  resuming,
} from '../wire/modern-envelope.js';
import { PagePerson, pageLinkIn } from '../wire/page-person.js';

// Only the right person answers a page. On a server with users, the page is shown only to the
// browser whose signed-in user made the call; anyone else gets a 403 and nothing is recorded.
// Pages are single use and expire. Submissions resist forgery.

/** The browser's signed-in user, from a cookie this test sets (a stand-in for the site's session). */
const person = (request: Request) => /(?:^|;\s*)who=([a-z]+)/.exec(request.headers.get('cookie') ?? '')?.[1];

function shop(
  options: Parameters<typeof createServer>[0]['questionPages'],
  now?: () => number,
): ParleyServer {
  const server = createServer({
    name: 'shop',
    version: '1.0.0',
    log: () => {},
    ...(now && { now }),
    ...(options !== undefined && { questionPages: options }),
  });
  server.tool('size', { description: 'Asks a size' }, async (_args, ctx) => {
    const size = await ctx.elicit('Which size?', ask.choice(['S', 'M', 'L']), { key: 'size' });
    return size.action === 'accept'
      ? `Size ${size.value} for ${ctx.user?.id ?? 'nobody'}.`
      : `No size (${size.action}).`;
  });
  return server;
}

const text = (reply: ModernReply) => {
  expect(reply.message.error).toBeUndefined();
  return (reply.message.result!.content as { text: string }[])[0]!.text;
};
const browserOf = (user?: string) => new PagePerson(user ? { cookie: `who=${user}` } : {});

describe('a server with users and a person hook', () => {
  let served: InProcess;
  beforeAll(async () => {
    served = await serveInProcess(
      shop({ person, signIn: (returnTo) => `/signin?return_to=${encodeURIComponent(returnTo)}` }),
    );
  });
  afterAll(() => served?.close());

  const ask = (user: string, args: Record<string, unknown> = {}) =>
    callTool(served.wire, 'size', args, {}, { capabilities: CAPABILITIES.none, user });

  it('shows the page only to the user who asked, sends nobody else anywhere, and records nothing for them', async () => {
    const link = pageLinkIn(text(await ask('alice')));

    const anonymous = await browserOf().open(link);
    expect(anonymous.status).toBe(303);
    expect(anonymous.response.headers.get('location')).toBe(`/signin?return_to=${encodeURIComponent(link)}`);

    const bob = browserOf('bob');
    const refused = await bob.open(link);
    expect(refused.status).toBe(403);
    expect(refused.island).toBeUndefined();
    expect(refused.html).toContain('This link is for another account');
    // A forged POST from bob's browser changes nothing either.
    const forged = await bob.post(link, { csrf: 'x'.repeat(32), action: 'accept', content: { value: 'L' } });
    expect(forged.status).toBe(403);

    const answered = await browserOf('alice').answer(link, { action: 'accept', content: { value: 'M' } });
    expect(answered.status).toBe(200);
    expect(text(await ask('alice'))).toBe('Size M for alice.');
  });

  it('never hands one user’s parked call to another', async () => {
    const aliceLink = pageLinkIn(text(await ask('alice', { n: 2 })));
    await browserOf('alice').answer(aliceLink, { action: 'accept', content: { value: 'S' } });
    // Bob makes the same call with the same arguments: a call of his own, with a page of his own.
    const bobLink = pageLinkIn(text(await ask('bob', { n: 2 })));
    expect(bobLink).not.toBe(aliceLink);
    expect(text(await ask('alice', { n: 2 }))).toBe('Size S for alice.');
  });

  it('takes one answer per page: a second submission is refused and changes nothing', async () => {
    const link = pageLinkIn(text(await ask('alice', { n: 3 })));
    const alice = browserOf('alice');
    const opened = await alice.open(link);
    const island = opened.island!;
    const first = await alice.post(island.answerUrl, {
      csrf: island.csrf,
      action: 'accept',
      content: { value: 'L' },
    });
    expect(first.status).toBe(200);
    const second = await alice.post(island.answerUrl, {
      csrf: island.csrf,
      action: 'accept',
      content: { value: 'S' },
    });
    expect(second.status).toBe(410);
    expect((await alice.open(link)).status).toBe(410);
    expect(text(await ask('alice', { n: 3 }))).toBe('Size L for alice.');
  });

  it('refuses answers that did not come from the page itself', async () => {
    const link = pageLinkIn(text(await ask('alice', { n: 4 })));
    const alice = browserOf('alice');
    const island = (await alice.open(link)).island!;
    const body = { csrf: island.csrf, action: 'accept', content: { value: 'L' } };
    expect((await alice.post(island.answerUrl, { ...body, csrf: 'wrong' })).status).toBe(403);
    expect((await alice.post(island.answerUrl, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await alice.post(island.answerUrl, body, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await alice.post(island.answerUrl, body, { 'content-type': 'text/plain' })).status).toBe(415);
    const invalid = await alice.post(island.answerUrl, { ...body, content: { value: 'XL' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([{ field: 'value', message: expect.any(String) }]);
    // None of it answered the question: the page still takes the real answer.
    expect((await alice.post(island.answerUrl, body)).status).toBe(200);
  });

  it('sends a strict policy with every page: no inline script, nothing framed, nothing cached', async () => {
    const link = pageLinkIn(text(await ask('alice', { n: 5 })));
    const { response, html } = await browserOf('alice').open(link);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // The only script elements: the page's own file, and the question as inert JSON data.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!.trim());
    expect(scripts).toEqual([
      expect.stringMatching(/^type="module" src="\/?.*question-page\.js"$/),
      'type="application/json" id="parley-question"',
    ]);
  });
});

describe('a page link that expired', () => {
  let served: InProcess;
  let clock = Date.now();
  beforeAll(async () => {
    served = await serveInProcess(shop({ ttlSeconds: 60 }, () => clock));
  });
  afterAll(() => served?.close());

  it('says so, and the call says to start again', async () => {
    const first = await callTool(served.wire, 'size', {}, {}, { capabilities: CAPABILITIES.resumes });
    const link = pageLinkIn(text(first));
    clock += 61_000;
    const opened = await browserOf().open(link);
    expect(opened.status).toBe(410);
    expect(opened.html).toContain('This link expired');
    // The parked call lived as long as its page: the same call is a new one, with a new link.
    const token = resumeTokenOf(first.message.result);
    const again = text(
      await callTool(served.wire, 'size', {}, resuming(token), { capabilities: CAPABILITIES.resumes }),
    );
    expect(pageLinkIn(again)).not.toBe(link);
  });
});

describe('a server with users and no way to check who opens a page', () => {
  let strict: InProcess;
  let lenient: InProcess;
  beforeAll(async () => {
    [strict, lenient] = await Promise.all([
      serveInProcess(shop(undefined)),
      serveInProcess(shop({ linkHolderMayAnswer: true })),
    ]);
  });
  afterAll(async () => {
    await Promise.all([strict?.close(), lenient?.close()]);
  });

  it('does not send a page a stranger could answer, and names the fix', async () => {
    const reply = await callTool(
      strict.wire,
      'size',
      {},
      {},
      { capabilities: CAPABILITIES.none, user: 'alice' },
    );
    expect(reply.message.error?.code).toBe(-32021);
    expect(reply.message.error?.message).toContain('set questionPages.person and questionPages.signIn');
  });

  it('lets the link holder answer when the author says so', async () => {
    const link = pageLinkIn(
      text(await callTool(lenient.wire, 'size', {}, {}, { capabilities: CAPABILITIES.none, user: 'alice' })),
    );
    await browserOf().answer(link, { action: 'accept', content: { value: 'S' } });
    const done = await callTool(
      lenient.wire,
      'size',
      {},
      {},
      { capabilities: CAPABILITIES.none, user: 'alice' },
    );
    expect(text(done)).toBe('Size S for alice.');
  });
});
