import { ask, createServer, type ParleyServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, textOf } from '../wire/handshake-client.js';
import { type InProcess, serveInProcess } from '../wire/in-process.js';
import {
  CAPABILITIES,
  callTool,
  type ModernReply,
  resumeTokenOf,
  resuming,
} from '../wire/modern-envelope.js';
import { PagePerson, pageLinkIn } from '../wire/page-person.js';

// The ladder end to end, over real loopback HTTP: a form question reaches the person whatever the
// client declared: in-band, on a page through URL mode, or on a page through a link in the result.

const booked: string[] = [];

function returnsDesk(): ParleyServer {
  const server = createServer({ name: 'returns-desk', title: 'Returns desk', version: '1.0.0' });
  server.tool('book_return', { description: 'Books a return' }, async (_args, ctx) => {
    const answer = await ctx.elicit(
      'How should we pick it up?',
      ask.form({
        reason: ask.choice(['Broken', 'Wrong item'], { title: 'Reason' }),
        boxes: ask.integer({ title: 'Boxes', min: 1, max: 3 }),
      }),
      { key: 'details' },
    );
    if (answer.action !== 'accept') return `No return booked (${answer.action}).`;
    const id = await ctx.once('book', (key) => {
      booked.push(key);
      return `R${booked.length}`;
    });
    return `Return ${id}: ${answer.value.boxes} box(es), ${answer.value.reason}.`;
  });
  server.prompt('greeting', { description: 'A greeting for a name the person gives' }, async (_args, ctx) => {
    const name = await ctx.elicit('Whom should we greet?', ask.text({ title: 'Name' }), { key: 'name' });
    return name.action === 'accept' ? `Write a warm greeting for ${name.value}.` : 'Write a greeting.';
  });
  server.resource('desk://notes/{topic}', { name: 'notes' }, async ({ uri }, ctx) => {
    const ok = await ctx.confirm(`Show the notes at ${uri}?`, { key: 'show' });
    return ok.confirmed ? 'The notes.' : 'Nothing shown.';
  });
  server.tool('strictly_in_band', { description: 'Never asks on a page' }, async (_args, ctx) => {
    const size = await ctx.elicit('Which size?', ask.choice(['S', 'M']), { key: 'size', via: 'inband' });
    return size.action === 'accept' ? `Size ${size.value}.` : 'No size.';
  });
  server.tool('always_on_page', { description: 'Always asks on a page' }, async (_args, ctx) => {
    const size = await ctx.elicit('Which size?', ask.choice(['S', 'M']), { key: 'size', via: 'page' });
    return size.action === 'accept' ? `Size ${size.value}.` : 'No size.';
  });
  server.tool('two_at_once', { description: 'Asks two questions in one round' }, async (_args, ctx) => {
    const { city, nights } = await ctx.elicitAll({
      city: ['Which city?', ask.text({ title: 'City' })],
      nights: ['How many nights?', ask.integer({ title: 'Nights', min: 1, max: 9 })],
    });
    if (city.action !== 'accept' || nights.action !== 'accept') return 'Nothing booked.';
    return `${nights.value} night(s) in ${city.value}.`;
  });
  server.tool('pick_tags', { description: 'Multi-select' }, async (_args, ctx) => {
    const tags = await ctx.elicit('Which tags?', ask.many(['red', 'green', 'blue'], { title: 'Tags' }));
    return tags.action === 'accept' ? `Tags: ${tags.value.join(', ')}.` : `No tags (${tags.action}).`;
  });
  return server;
}

let served: InProcess;
const person = new PagePerson();

beforeAll(async () => {
  served = await serveInProcess(returnsDesk());
});
afterAll(async () => {
  await served?.close();
});

function result(reply: ModernReply): Record<string, unknown> {
  expect(reply.message.error).toBeUndefined();
  return reply.message.result!;
}
const textOfReply = (reply: ModernReply) =>
  ((result(reply).content as { text: string }[] | undefined) ?? [])[0]?.text ?? '';

describe('2026-07-28', () => {
  it('keeps a form in-band for a client that shows forms', async () => {
    const first = result(
      await callTool(served.wire, 'book_return', {}, {}, { capabilities: CAPABILITIES.formAndUrl }),
    );
    expect(first.resultType).toBe('input_required');
    const request = (first.inputRequests as Record<string, { params: { mode: string } }>).details!;
    expect(request.params.mode).toBe('form');
  });

  it('sends a URL-only client to the page, and goes on with the answer given there', async () => {
    const before = booked.length;
    const first = result(
      await callTool(served.wire, 'book_return', {}, {}, { capabilities: CAPABILITIES.urlOnly }),
    );
    const request = (
      first.inputRequests as Record<string, { params: { mode: string; url: string; message: string } }>
    ).details!;
    expect(request.params.mode).toBe('url');
    expect(new URL(request.params.url).origin).toBe(new URL(served.url).origin);
    expect(request.params.message).toContain('How should we pick it up?');

    // Consent alone is no answer: the page is still open, so the question comes again.
    const early = result(
      await callTool(
        served.wire,
        'book_return',
        {},
        { requestState: first.requestState, inputResponses: { details: { action: 'accept' } } },
        { capabilities: CAPABILITIES.urlOnly },
      ),
    );
    expect(early.resultType).toBe('input_required');
    // ...and says why: the client said the person had finished, but the page was not answered.
    const askedAgain = (early.inputRequests as Record<string, { params: { url: string; message: string } }>)
      .details!;
    expect(askedAgain.params.url).toBe(request.params.url);
    expect(askedAgain.params.message).toMatch(/^The page has not been answered yet: answer it .* first/);
    expect(askedAgain.params.message).toContain('How should we pick it up?');

    const answered = await person.answer(request.params.url, {
      action: 'accept',
      content: { reason: 'Broken', boxes: 2 },
    });
    expect(answered.status).toBe(200);
    expect(answered.island.call).toEqual({ kind: 'tool', name: 'book_return' });
    expect(answered.island.server.title).toBe('Returns desk');
    expect(answered.island.after).toBe('url');
    // On 2026-07-28 the app goes on only when the person says so: the page tells them to.
    expect(answered.body.message).toBe(
      'Your answer reached Returns desk. Go back to your app and tell it you have finished (in the Parley lab: "I\'ve finished"): it goes on from there. You can close this tab.',
    );

    const done = await callTool(
      served.wire,
      'book_return',
      {},
      { requestState: early.requestState, inputResponses: { details: { action: 'accept' } } },
      { capabilities: CAPABILITIES.urlOnly },
    );
    expect(textOfReply(done)).toBe(`Return R${before + 1}: 2 box(es), Broken.`);
    expect(booked.length).toBe(before + 1);

    // The page was used once.
    const again = await person.open(request.params.url);
    expect(again.status).toBe(410);
  });

  it('gives a client that declared no elicitation the link, and goes on when the same call comes again', async () => {
    const before = booked.length;
    const resumes = { capabilities: CAPABILITIES.resumes };
    const first = result(await callTool(served.wire, 'book_return', {}, {}, resumes));
    const text = textOfReply({ status: 200, message: { jsonrpc: '2.0', id: 1, result: first } });
    expect(text).toContain('How should we pick it up?');
    expect(text).toContain('call book_return again with the same arguments');
    const link = pageLinkIn(text);
    const meta = (first._meta as Record<string, { url: string }[]>)['dev.parley/pages']!;
    expect(meta[0]!.url).toBe(link);
    const token = resumeTokenOf(first);
    expect(token).toMatch(/^[\w-]{32}$/);

    // Called again with its token before the person answered: the same link again, nothing booked.
    const waiting = result(await callTool(served.wire, 'book_return', {}, resuming(token), resumes));
    expect(pageLinkIn((waiting.content as { text: string }[])[0]!.text)).toBe(link);
    expect(resumeTokenOf(waiting)).toBe(token);

    const answered = await person.answer(link, {
      action: 'accept',
      content: { reason: 'Wrong item', boxes: 1 },
    });
    expect(answered.status).toBe(200);
    expect(answered.island.after).toBe('retry');

    const done = await callTool(served.wire, 'book_return', {}, resuming(token), resumes);
    expect(textOfReply(done)).toBe(`Return R${before + 1}: 1 box(es), Wrong item.`);
    expect(resumeTokenOf(result(done))).toBeUndefined();
    expect(booked.length).toBe(before + 1);

    // The parked call resumed once: the next call is a new one, with the old token or without one.
    for (const round of [resuming(token), {}]) {
      const fresh = textOfReply(await callTool(served.wire, 'book_return', {}, round, resumes));
      expect(pageLinkIn(fresh)).not.toBe(link);
    }
  });

  it('keeps decline and cancel apart on the page', async () => {
    const resumes = { capabilities: CAPABILITIES.resumes };
    const first = result(await callTool(served.wire, 'book_return', { n: 1 }, {}, resumes));
    await person.answer(pageLinkIn((first.content as { text: string }[])[0]!.text), { action: 'decline' });
    const declined = await callTool(
      served.wire,
      'book_return',
      { n: 1 },
      resuming(resumeTokenOf(first)),
      resumes,
    );
    expect(textOfReply(declined)).toBe('No return booked (decline).');
  });
});

describe('anonymous callers at one address (issue 41, finding 1)', () => {
  // Every caller of this in-process endpoint has the same address, as behind a NAT, a proxy, an IPv6
  // /64, or server.endpoint() given no remoteAddress. Before the fix a parked call was found by that
  // address: a second caller making the same call got the first one's link, then its answers.
  it('never gives one caller the page or the answers of another', async () => {
    const resumes = { capabilities: CAPABILITIES.resumes };
    const args = { victim: true };
    const first = result(await callTool(served.wire, 'book_return', args, {}, resumes));
    const link = pageLinkIn((first.content as { text: string }[])[0]!.text);
    const token = resumeTokenOf(first)!;

    // Another anonymous caller makes the same call: a page of its own, never the first one's link.
    const other = result(await callTool(served.wire, 'book_return', args, {}, resumes));
    const otherLink = pageLinkIn((other.content as { text: string }[])[0]!.text);
    expect(otherLink).not.toBe(link);
    expect(resumeTokenOf(other)).not.toBe(token);

    await person.answer(link, { action: 'accept', content: { reason: 'Broken', boxes: 3 } });

    // The other caller, with its own token, without one, or with a made-up one, gets no answer of the first.
    for (const round of [
      resuming(resumeTokenOf(other)),
      {},
      resuming('A'.repeat(32)),
      resuming('not a token'),
    ]) {
      const text = textOfReply(await callTool(served.wire, 'book_return', args, round, resumes));
      expect(text).not.toContain('3 box(es)');
      expect(pageLinkIn(text)).not.toBe(link);
    }
    // The first caller's token works for its own call only: not for the same tool with other arguments.
    const elsewhere = textOfReply(
      await callTool(served.wire, 'book_return', { n: 9 }, resuming(token), resumes),
    );
    expect(elsewhere).not.toContain('3 box(es)');
    const done = await callTool(served.wire, 'book_return', args, resuming(token), resumes);
    expect(textOfReply(done)).toMatch(/^Return R\d+: 3 box\(es\), Broken\.$/);
  });

  it('on the 2025 eras, keeps each anonymous session to its own parked calls', async () => {
    const [first, other] = await Promise.all([
      connectHandshake({ url: served.url }, { capabilities: {} }),
      connectHandshake({ url: served.url }, { capabilities: {} }),
    ]);
    const args = { victim: 2025 };
    const link = pageLinkIn(textOf(await first.callTool('book_return', args)));
    expect(pageLinkIn(textOf(await other.callTool('book_return', args)))).not.toBe(link);
    await person.answer(link, { action: 'accept', content: { reason: 'Broken', boxes: 2 } });
    const text = textOf(await other.callTool('book_return', args));
    expect(text).not.toContain('2 box(es)');
    expect(pageLinkIn(text)).not.toBe(link);
    expect(textOf(await first.callTool('book_return', args))).toMatch(/^Return R\d+: 2 box\(es\), Broken\.$/);
    await Promise.all([first.close(), other.close()]);
  });

  it('parks by address only where the author says so, and never gives a waiting page’s link twice', async () => {
    const lenient = createServer({
      name: 'returns-desk',
      version: '1.0.0',
      log: () => {},
      questionPages: { anonymousByAddress: true },
    });
    lenient.tool('pickup', { description: 'Books a pickup' }, async (_args, ctx) => {
      const day = await ctx.elicit('Which day?', ask.text({ title: 'Day' }), { key: 'day' });
      return day.action === 'accept' ? `Pickup on ${day.value}.` : 'No pickup.';
    });
    const local = await serveInProcess(lenient);
    try {
      const call = () => callTool(local.wire, 'pickup', {}, {}, { capabilities: CAPABILITIES.none });
      const first = result(await call());
      expect(resumeTokenOf(first)).toBeUndefined();
      const link = pageLinkIn((first.content as { text: string }[])[0]!.text);
      // The same call again, from the same address, while the page waits: not the link again.
      const again = result(await call());
      const text = (again.content as { text: string }[])[0]!.text;
      expect(text).not.toContain(link);
      expect(text).toContain('Which day?\n  Answer on the page this call was sent to when it was made.');
      expect((again._meta as Record<string, unknown[]>)['dev.parley/pages']).toEqual([]);
      await person.answer(link, { action: 'accept', content: { value: 'Friday' } });
      expect(textOfReply(await call())).toBe('Pickup on Friday.');
    } finally {
      await local.close();
    }
  });

  it('refuses with a steer a client that can neither show the form, open a URL, nor carry a token back', async () => {
    const refused = await callTool(served.wire, 'book_return', {}, {}, { capabilities: CAPABILITIES.none });
    expect(refused.status).toBe(400);
    expect(refused.message.error?.code).toBe(-32021);
    expect(refused.message.error?.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    expect(refused.message.error?.message).toMatch(
      /any other caller at the same network address.*declares URL elicitation.*dev\.parley\/resume.*sign in/,
    );
  });
});

describe('where an author sends one question', () => {
  it("via: 'inband' keeps it to clients that show forms (ElicitationUnavailable for the rest)", async () => {
    const refused = await callTool(
      served.wire,
      'strictly_in_band',
      {},
      {},
      { capabilities: CAPABILITIES.none },
    );
    expect(refused.message.error?.code).toBe(-32021);
    expect(refused.status).toBe(400);
    const asked = result(
      await callTool(served.wire, 'strictly_in_band', {}, {}, { capabilities: CAPABILITIES.formOnly }),
    );
    expect((asked.inputRequests as Record<string, { params: { mode: string } }>).size!.params.mode).toBe(
      'form',
    );
  });

  it("via: 'page' asks on the page even a client that shows forms", async () => {
    const asked = result(
      await callTool(served.wire, 'always_on_page', {}, {}, { capabilities: CAPABILITIES.formAndUrl }),
    );
    const question = (asked.inputRequests as Record<string, { params: { mode: string; url: string } }>).size!;
    expect(question.params.mode).toBe('url');
    await person.answer(question.params.url, { action: 'accept', content: { value: 'M' } });
    const done = await callTool(
      served.wire,
      'always_on_page',
      {},
      { requestState: asked.requestState, inputResponses: { size: { action: 'accept' } } },
      { capabilities: CAPABILITIES.formAndUrl },
    );
    expect(textOfReply(done)).toBe('Size M.');
  });
});

describe('prompts and resources take the ladder too', () => {
  it('a prompt parks with the link in its message, and goes on when it is got again', async () => {
    const get = (token?: string) =>
      served.wire.request(
        'prompts/get',
        { name: 'greeting', arguments: {}, ...resuming(token) },
        { capabilities: CAPABILITIES.resumes },
      );
    const first = result(await get());
    const text = (first.messages as { content: { text: string } }[])[0]!.content.text;
    expect(text).toContain('get the prompt greeting again with the same arguments');
    await person.answer(pageLinkIn(text), { action: 'accept', content: { value: 'Ada' } });
    const done = result(await get(resumeTokenOf(first)));
    expect((done.messages as { content: { text: string } }[])[0]!.content.text).toBe(
      'Write a warm greeting for Ada.',
    );
  });

  it('a resource parks with the link in its text, and a confirmation there is a yes/no', async () => {
    const read = (token?: string) =>
      served.wire.request(
        'resources/read',
        { uri: 'desk://notes/boxes', ...resuming(token) },
        { capabilities: CAPABILITIES.resumes },
      );
    const first = result(await read());
    const contents = first.contents as { uri: string; text: string }[];
    expect(contents[0]!.uri).toBe('desk://notes/boxes');
    const answered = await person.answer(pageLinkIn(contents[0]!.text), {
      action: 'accept',
      content: { value: true },
    });
    expect(answered.island.confirm).toBe(true);
    expect(answered.island.call).toEqual({ kind: 'resource', name: 'desk://notes/boxes' });
    expect((result(await read(resumeTokenOf(first))).contents as { text: string }[])[0]!.text).toBe(
      'The notes.',
    );
  });
});

describe('2025-11-25 and 2025-06-18', () => {
  it('sends a form to the page when the client declared forms but fails elicitation/create', async () => {
    const before = booked.length;
    // Declares forms and URL mode, but implements no elicitation/create: the SDK answers -32601.
    const client = await connectHandshake(
      { url: served.url },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    const pending = client.callTool('book_return');
    // The form fails, so the question comes again as a URL-mode question; the SDK answers it -32601
    // too, so the call parks with the link.
    const text = textOf(await pending);
    const link = pageLinkIn(text);
    await person.answer(link, { action: 'accept', content: { reason: 'Broken', boxes: 3 } });
    expect(textOf(await client.callTool('book_return'))).toBe(`Return R${before + 1}: 3 box(es), Broken.`);
    await client.close();
  });

  it('asks a URL-capable 2025-11-25 client through URL mode when its forms fail', async () => {
    const before = booked.length;
    let urlQuestion: { url: string; elicitationId: string } | undefined;
    let pageSaid = '';
    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        answer: async (request) => {
          if (request.params.mode !== 'url') throw new Error('This host cannot show forms');
          urlQuestion = request.params as never;
          // The person opens the page and answers it before the client replies with consent.
          const answered = await person.answer(request.params.url, {
            action: 'accept',
            content: { reason: 'Wrong item', boxes: 2 },
          });
          // On a 2025 session the server waits for the page: the call goes on without the person.
          pageSaid = answered.body.message;
          return { action: 'accept' };
        },
      },
    );
    expect(textOf(await client.callTool('book_return'))).toBe(
      `Return R${before + 1}: 2 box(es), Wrong item.`,
    );
    expect(urlQuestion?.url).toContain('/parley/questions/');
    expect(pageSaid).toBe(
      'Your answer reached Returns desk. Go back to your app: it goes on by itself. You can close this tab.',
    );
    await client.close();
  });

  it('lists every link of a batch at once, on both eras', async () => {
    const links = (text: string) => [...text.matchAll(/Answer here: (\S+)/g)].map((match) => match[1]!);
    const modern = (token?: string) =>
      callTool(served.wire, 'two_at_once', {}, resuming(token), { capabilities: CAPABILITIES.resumes });
    const parked = await modern();
    const first = links(textOfReply(parked));
    expect(first).toHaveLength(2);
    await person.answer(first[0]!, { action: 'accept', content: { value: 'Lyon' } });
    await person.answer(first[1]!, { action: 'accept', content: { value: 3 } });
    expect(textOfReply(await modern(resumeTokenOf(result(parked))))).toBe('3 night(s) in Lyon.');

    const client = await connectHandshake({ url: served.url }, { capabilities: {} });
    const waiting = links(textOf(await client.callTool('two_at_once')));
    expect(waiting).toHaveLength(2);
    await person.answer(waiting[0]!, { action: 'accept', content: { value: 'Oslo' } });
    await person.answer(waiting[1]!, { action: 'accept', content: { value: 2 } });
    expect(textOf(await client.callTool('two_at_once'))).toBe('2 night(s) in Oslo.');
    await client.close();
  });

  it('reaches the person with a multi-select on 2025-06-18', async () => {
    let asked = 0;
    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: {} },
        protocolVersion: '2025-06-18',
        answer: () => {
          asked++;
          return { action: 'cancel' };
        },
      },
    );
    const text = textOf(await client.callTool('pick_tags'));
    expect(asked).toBe(0);
    const answered = await person.answer(pageLinkIn(text), {
      action: 'accept',
      content: { value: ['red', 'blue'] },
    });
    expect(answered.island.requestedSchema.properties.value).toMatchObject({ type: 'array' });
    expect(textOf(await client.callTool('pick_tags'))).toBe('Tags: red, blue.');
    await client.close();
  });
});
