import type { ElicitRequest } from '@modelcontextprotocol/client';
import { createServer, type ParleyServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { connectHandshake, textOf } from './wire/handshake-client.js';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { CAPABILITIES, callTool, type ModernReply, resumeTokenOf, resuming } from './wire/modern-envelope.js';
import { PagePerson, pageLinkIn } from './wire/page-person.js';

// askMissing and ctx.elicitMissing end to end, over real loopback HTTP, on both eras: arguments the
// caller left out or got wrong are asked in one form; the handler gets them complete and checked.

const REASONS = ['Broken', 'Wrong item', 'No longer needed'] as const;
const returnArgs = z.object({
  reason: z.enum(REASONS).optional().meta({ title: 'Reason for the return' }),
  boxes: z.number().int().min(1).max(3).optional().describe('How many boxes the courier collects'),
  pickup_date: z.iso.date().optional(),
  note: z.string().optional(),
});

function returnsDesk(options: { pages: boolean }): ParleyServer {
  const server = createServer({
    name: 'returns-desk',
    title: 'Returns desk',
    version: '1.0.0',
    ...(!options.pages && { questionPages: false as const }),
  });
  server.tool(
    'book_return',
    {
      title: 'Book a return',
      input: returnArgs,
      askMissing: { fields: ['reason', 'boxes', 'pickup_date'] },
    },
    // Typed: the three asked-for fields are no longer optional.
    async ({ reason, boxes, pickup_date, note }) =>
      `Booked: ${reason}, ${boxes.toFixed(0)} box(es) on ${pickup_date}${note ? ` (${note})` : ''}.`,
  );
  server.tool(
    'ship',
    {
      input: z.object({
        order: z.number().int().min(1000).max(9999),
        address: z.object({ street: z.string() }),
        code: z
          .string()
          .refine((value) => value.startsWith('A'), 'Codes start with A')
          .optional(),
      }),
      askMissing: { fields: ['code'] },
    },
    async ({ order, address, code }) => `Shipping ${order} to ${address.street} with ${code}.`,
  );
  server.tool(
    'book_pickup',
    {
      input: z.object({
        boxes: z.number().int().min(1).max(3).optional(),
        email: z.email().optional(),
        gift_wrap: z.boolean().optional(),
      }),
    },
    async (args, ctx) => {
      const full = await ctx.elicitMissing(args, {
        fields: ['boxes', 'email'],
        optional: ['gift_wrap'],
        given: 'skip',
        defaults: { email: `${ctx.user?.id ?? 'someone'}@example.com` },
        message: 'How many boxes, and where should the label go?',
        key: 'pickup',
      });
      if (full.action !== 'accept') return `No pickup (${full.action}).`;
      const { boxes, email, gift_wrap } = full.value;
      return `Pickup of ${boxes} box(es), label to ${email}${gift_wrap ? ', gift-wrapped' : ''}.`;
    },
  );
  return server;
}

let served: InProcess;
let noPages: InProcess;
const person = new PagePerson();

beforeAll(async () => {
  [served, noPages] = await Promise.all([
    serveInProcess(returnsDesk({ pages: true })),
    serveInProcess(returnsDesk({ pages: false })),
  ]);
});
afterAll(async () => {
  await Promise.all([served?.close(), noPages?.close()]);
});

interface FormRequest {
  readonly method: string;
  readonly params: {
    readonly mode?: string;
    readonly message: string;
    readonly url?: string;
    readonly requestedSchema: {
      readonly properties: Record<string, Record<string, unknown>>;
      readonly required?: string[];
    };
  };
}

function result(reply: ModernReply): Record<string, unknown> {
  expect(reply.message.error).toBeUndefined();
  return reply.message.result!;
}
const textOfReply = (reply: ModernReply) =>
  ((result(reply).content as { text: string }[] | undefined) ?? [])[0]?.text ?? '';

/** The one question of an input_required round. */
function onlyQuestion(reply: ModernReply): { key: string; request: FormRequest; state: unknown } {
  const round = result(reply);
  expect(round.resultType).toBe('input_required');
  const requests = round.inputRequests as Record<string, FormRequest>;
  expect(Object.keys(requests)).toHaveLength(1);
  const [key, request] = Object.entries(requests)[0]!;
  return { key, request, state: round.requestState };
}

const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('2026-07-28, a client that shows forms', () => {
  const ask = (name: string, args: Record<string, unknown>) =>
    callTool(served.wire, name, args, {}, { capabilities: CAPABILITIES.formAndUrl });
  const answer = (
    name: string,
    args: Record<string, unknown>,
    key: string,
    state: unknown,
    content: object,
  ) =>
    callTool(
      served.wire,
      name,
      args,
      { requestState: state, inputResponses: { [key]: { action: 'accept', content } } },
      { capabilities: CAPABILITIES.formAndUrl },
    );

  it('asks only for what is missing, with what was given filled in to change', async () => {
    const args = { reason: 'Wrong item', note: 'fragile' };
    const { key, request, state } = onlyQuestion(await ask('book_return', args));
    expect(key).toBe('missing_arguments');
    expect(request.params.mode).toBe('form');
    expect(request.params.message).toBe(
      'Book a return needs boxes and pickup date. Fill in what is missing.',
    );
    const { properties, required } = request.params.requestedSchema;
    expect(Object.keys(properties)).toEqual(['boxes', 'pickup_date', 'reason']);
    expect(required).toEqual(['boxes', 'pickup_date', 'reason']);
    expect(properties.boxes).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 3,
      description: 'How many boxes the courier collects',
    });
    expect(properties.pickup_date).toEqual({ type: 'string', format: 'date' });
    expect(properties.reason).toMatchObject({ title: 'Reason for the return', default: 'Wrong item' });
    // note was given and is not asked for: it is kept as the caller sent it.
    expect(properties.note).toBeUndefined();

    const done = await answer('book_return', args, key, state, {
      reason: 'Broken',
      boxes: 2,
      pickup_date: tomorrow,
    });
    expect(textOfReply(done)).toBe(`Booked: Broken, 2 box(es) on ${tomorrow} (fragile).`);
  });

  it('asks for every wanted argument when none was given', async () => {
    const { request } = onlyQuestion(await ask('book_return', {}));
    expect(request.params.message).toBe(
      'Book a return needs reason for the return, boxes and pickup date. Fill in what is missing.',
    );
    expect(request.params.requestedSchema.required).toEqual(['reason', 'boxes', 'pickup_date']);
  });

  it('asks again for an argument the caller got wrong, saying why, and keeps the rest', async () => {
    const args = { reason: 'Broken', boxes: 9, pickup_date: tomorrow };
    const { key, request, state } = onlyQuestion(await ask('book_return', args));
    expect(request.params.message).toMatch(
      /^The boxes given could not be used \(Too big: .*3\)\. Enter it again\.$/,
    );
    expect(Object.keys(request.params.requestedSchema.properties)).toEqual([
      'boxes',
      'reason',
      'pickup_date',
    ]);
    // The invalid value is never offered back as a default.
    expect(request.params.requestedSchema.properties.boxes!.default).toBeUndefined();
    expect(request.params.requestedSchema.properties.pickup_date!.default).toBe(tomorrow);
    const done = await answer('book_return', args, key, state, {
      boxes: 3,
      reason: 'Broken',
      pickup_date: tomorrow,
    });
    expect(textOfReply(done)).toBe(`Booked: Broken, 3 box(es) on ${tomorrow}.`);
  });

  it('asks nothing when the arguments are complete', async () => {
    const args = { reason: 'Broken', boxes: 1, pickup_date: tomorrow };
    expect(textOfReply(await ask('book_return', args))).toBe(`Booked: Broken, 1 box(es) on ${tomorrow}.`);
  });

  it('fails as usual, naming it, for an argument a form cannot ask', async () => {
    const reply = result(await ask('ship', { order: 1001 }));
    expect(reply.isError).toBe(true);
    expect((reply.content as { text: string }[])[0]!.text).toMatch(
      /^Invalid arguments for tool ship: address: /,
    );
  });

  it('asks again, with the reason, when the answer still fails the schema', async () => {
    const args = { order: 1001, address: { street: 'Main St 1' } };
    const first = onlyQuestion(await ask('ship', args));
    // The required order was given: filled in for the person to change; the address cannot be shown.
    expect(first.request.params.requestedSchema.properties).toEqual({
      code: { type: 'string' },
      order: { type: 'integer', minimum: 1000, maximum: 9999, default: 1001 },
    });
    const again = onlyQuestion(
      await answer('ship', args, first.key, first.state, { code: 'B7', order: 1001 }),
    );
    expect(again.key).toBe('missing_arguments_2');
    expect(again.request.params.message).toMatch(/^That answer could not be used: code: Codes start with A/);
    const done = await answer('ship', args, again.key, again.state, { code: 'A7', order: 1002 });
    expect(textOfReply(done)).toBe('Shipping 1002 to Main St 1 with A7.');
  });

  it('does not run the tool when the person declines', async () => {
    const { key, state } = onlyQuestion(await ask('book_return', {}));
    const declined = await callTool(
      served.wire,
      'book_return',
      {},
      { requestState: state, inputResponses: { [key]: { action: 'decline' } } },
      { capabilities: CAPABILITIES.formAndUrl },
    );
    expect(textOfReply(declined)).toBe(
      'Tool book_return did nothing: the person declined the form for its missing arguments (reason, boxes, pickup_date).',
    );
  });

  it('ctx.elicitMissing: defaults worked out in the handler, given arguments left out of the form', async () => {
    const user = { capabilities: CAPABILITIES.formAndUrl, user: 'ann' };
    const args = { boxes: 2 };
    const first = onlyQuestion(await callTool(served.wire, 'book_pickup', args, {}, user));
    expect(first.key).toBe('pickup');
    expect(first.request.params.message).toBe('How many boxes, and where should the label go?');
    expect(first.request.params.requestedSchema).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', default: 'ann@example.com' },
        gift_wrap: { type: 'boolean' },
      },
      required: ['email'],
    });
    const done = await callTool(
      served.wire,
      'book_pickup',
      args,
      {
        requestState: first.state,
        inputResponses: {
          pickup: { action: 'accept', content: { email: 'ann@example.com', gift_wrap: true } },
        },
      },
      user,
    );
    expect(textOfReply(done)).toBe('Pickup of 2 box(es), label to ann@example.com, gift-wrapped.');
  });
});

describe('2026-07-28, a client that cannot show a form', () => {
  it('asks on a page of the server through a link, and the same call goes on', async () => {
    const args = { boxes: 2 };
    // It carries the parked call's resume token back, as Parley's client does.
    const resumes = { capabilities: CAPABILITIES.resumes };
    const first = await callTool(served.wire, 'book_return', args, {}, resumes);
    const parked = textOfReply(first);
    const token = resumeTokenOf(first.message.result as Record<string, unknown>);
    expect(token).toBeDefined();
    const link = pageLinkIn(parked);
    const answered = await person.answer(link, {
      action: 'accept',
      content: { reason: 'No longer needed', boxes: 1, pickup_date: tomorrow },
    });
    expect(answered.status).toBe(200);
    expect(answered.island.message).toBe(
      'Book a return needs reason for the return and pickup date. Fill in what is missing.',
    );
    expect(answered.island.requestedSchema.properties.boxes).toMatchObject({ default: 2 });
    const done = await callTool(served.wire, 'book_return', args, resuming(token), resumes);
    expect(textOfReply(done)).toBe(`Booked: No longer needed, 1 box(es) on ${tomorrow}.`);
  });

  it('gets the usual error, naming the fields, when it carries no resume token back (anonymous)', async () => {
    const none = { capabilities: CAPABILITIES.none };
    const refused = textOfReply(await callTool(served.wire, 'book_return', { boxes: 2 }, {}, none));
    expect(refused).toBe('Invalid arguments for tool book_return: reason: missing; pickup_date: missing');
  });

  it('asks a URL-only client on the page through URL mode', async () => {
    const url = { capabilities: CAPABILITIES.urlOnly };
    const { key, request, state } = onlyQuestion(await callTool(served.wire, 'book_return', {}, {}, url));
    expect(request.params.mode).toBe('url');
    await person.answer(request.params.url!, {
      action: 'accept',
      content: { reason: 'Broken', boxes: 3, pickup_date: tomorrow },
    });
    const done = await callTool(
      served.wire,
      'book_return',
      {},
      { requestState: state, inputResponses: { [key]: { action: 'accept' } } },
      url,
    );
    expect(textOfReply(done)).toBe(`Booked: Broken, 3 box(es) on ${tomorrow}.`);
  });

  it('gives the usual invalid-arguments error where nobody can be asked', async () => {
    const reply = result(
      await callTool(noPages.wire, 'book_return', { boxes: 9 }, {}, { capabilities: CAPABILITIES.none }),
    );
    expect(reply.isError).toBe(true);
    expect((reply.content as { text: string }[])[0]!.text).toMatch(
      /^Invalid arguments for tool book_return: boxes: Too big/,
    );
    const absent = result(
      await callTool(noPages.wire, 'book_return', {}, {}, { capabilities: CAPABILITIES.none }),
    );
    expect((absent.content as { text: string }[])[0]!.text).toBe(
      'Invalid arguments for tool book_return: reason: missing; boxes: missing; pickup_date: missing',
    );
  });
});

describe('2025-11-25, over a session', () => {
  it('asks a client that shows forms with elicitation/create, once, and runs the tool', async () => {
    const asked: ElicitRequest[] = [];
    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: (request) => {
          asked.push(request);
          return { action: 'accept', content: { boxes: 1, pickup_date: tomorrow, reason: 'Broken' } };
        },
      },
    );
    const args = { reason: 'Broken', boxes: 7 };
    expect(textOf(await client.callTool('book_return', args))).toBe(
      `Booked: Broken, 1 box(es) on ${tomorrow}.`,
    );
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params as unknown as FormRequest['params'];
    expect(params.message).toMatch(/needs pickup date\. The boxes given could not be used \(Too big/);
    expect(Object.keys(params.requestedSchema.properties)).toEqual(['pickup_date', 'boxes', 'reason']);
    expect(params.requestedSchema.properties.reason).toMatchObject({ default: 'Broken' });
    await client.close();
  });

  it('asks a client with no elicitation on the page, by link, and goes on', async () => {
    const client = await connectHandshake({ url: served.url }, { capabilities: {} });
    const parked = textOf(await client.callTool('book_return', { pickup_date: tomorrow }));
    await person.answer(pageLinkIn(parked), {
      action: 'accept',
      content: { reason: 'Wrong item', boxes: 2, pickup_date: tomorrow },
    });
    expect(textOf(await client.callTool('book_return', { pickup_date: tomorrow }))).toBe(
      `Booked: Wrong item, 2 box(es) on ${tomorrow}.`,
    );
    await client.close();
  });

  it('gives the usual error where nobody can be asked, and keeps decline apart', async () => {
    const cannot = await connectHandshake({ url: noPages.url }, { capabilities: {} });
    const refused = await cannot.callTool('book_return', { reason: 'Broken' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'Invalid arguments for tool book_return: boxes: missing; pickup_date: missing',
    );
    await cannot.close();

    // No arguments at all: every wanted one is asked, in one form; declined, the tool does nothing.
    const asked: ElicitRequest[] = [];
    const declines = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: (request) => {
          asked.push(request);
          return { action: 'decline' };
        },
      },
    );
    expect(textOf(await declines.callTool('book_return', {}))).toMatch(/the person declined the form/);
    const schema = (asked[0]!.params as unknown as FormRequest['params']).requestedSchema;
    expect(schema.required).toEqual(['reason', 'boxes', 'pickup_date']);
    expect(asked).toHaveLength(1);
    await declines.close();
  });
});
