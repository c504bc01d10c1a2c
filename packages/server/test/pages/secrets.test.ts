import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { KeyRing } from '@parley/core/seal';
import { ask, createServer, MemoryFlowStore, type ParleyContext, SecretInFormError } from '@parley/server';
import { telemetry } from '@parley/server/otel';
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

// ask.secret(): the key reaches the handler, and nothing else: not the client (in any reply), not
// the sealed state (decrypted here with the server's own key), not the log, not the spans, not the
// store in the clear; and it is erased from the store once the call ends.

const STATE_KEY = randomBytes(32).toString('base64');
const SECRET = `sk_live_${randomBytes(12).toString('hex')}`;
const person = new PagePerson();

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  't',
);
const logged: string[] = [];
const received: string[] = [];
const linked: string[] = [];
const store = new MemoryFlowStore();
let served: InProcess;

beforeAll(async () => {
  const server = createServer({
    name: 'couriers',
    version: '1.0.0',
    state: { keys: [{ id: 'k1', secret: STATE_KEY }] },
    questionPages: { store },
    log: (level, message, details) => logged.push(`${level} ${message} ${JSON.stringify(details ?? {})}`),
  });
  server.use(telemetry({ tracer }));
  server.tool('link_courier_account', { description: 'Links a courier account' }, async (_args, ctx) => {
    const key = await ctx.elicit(
      'Paste the API key of your courier account',
      ask.secret({ title: 'Courier API key' }),
      { key: 'courier' },
    );
    if (key.action !== 'accept') return `Not linked (${key.action}).`;
    await ctx.log('info', { linking: key.value, text: `key ${key.value}` });
    // A question after the secret: on 2026-07-28 this round replays, and the key is read again.
    const label = await ctx.elicit('A name for this account?', ask.text({ title: 'Name' }), { key: 'label' });
    linked.push(key.value.reveal());
    const name = label.action === 'accept' ? label.value : 'unnamed';
    return `Courier account linked: ${name} (${key.value.length} characters; shown as ${key.value}).`;
  });
  served = await serveInProcess(server);
});
afterAll(() => served?.close());

function record(reply: ModernReply): Record<string, unknown> {
  received.push(JSON.stringify(reply.message));
  expect(reply.message.error).toBeUndefined();
  return reply.message.result!;
}

/** What a requestState holds, opened with the server's own key (the binding as the server writes it). */
async function openState(token: string, args: Record<string, unknown> = {}): Promise<string> {
  const ring = await KeyRing.create([{ id: 'k1', secret: STATE_KEY }]);
  const aad = new TextEncoder().encode(
    JSON.stringify([
      'parley.state.v1',
      'couriers',
      'tools/call',
      'link_courier_account',
      JSON.stringify(args),
      '',
    ]),
  );
  const opened = await ring.open(token, aad);
  if (!opened.ok) throw new Error(`state did not open: ${opened.reason}`);
  const bytes = opened.plaintext;
  return bytes[0] === 0x01
    ? inflateRawSync(bytes.subarray(1), { windowBits: 10 }).toString()
    : new TextDecoder().decode(bytes);
}

const pageIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('ask.secret() on 2026-07-28, through URL mode', () => {
  it('gives the key to the handler and to nothing else', async () => {
    const capabilities = { elicitation: { form: {}, url: {} } };
    // The client shows forms, but a secret never goes in one: it gets the page.
    const first = record(await callTool(served.wire, 'link_courier_account', {}, {}, { capabilities }));
    const question = (first.inputRequests as Record<string, { params: { mode: string; url: string } }>)
      .courier!;
    expect(question.params.mode).toBe('url');
    const opened = await person.open(question.params.url);
    expect(opened.island?.secretFields).toEqual(['value']);
    expect(opened.island?.requestedSchema.properties.value).toMatchObject({
      type: 'string',
      title: 'Courier API key',
    });

    const answered = await person.answer(question.params.url, {
      action: 'accept',
      content: { value: SECRET },
    });
    expect(answered.status).toBe(200);
    // Kept sealed until the call ends, never in the clear.
    const sealed = await store.getValue(`answer:${pageIdOf(question.params.url)}`);
    expect(sealed).toBeDefined();
    expect(sealed).not.toContain(SECRET);
    expect(JSON.stringify(await store.get(pageIdOf(question.params.url)))).not.toContain(SECRET);

    const second = record(
      await callTool(
        served.wire,
        'link_courier_account',
        {},
        { requestState: first.requestState, inputResponses: { courier: { action: 'accept' } } },
        { capabilities },
      ),
    );
    expect(second.resultType).toBe('input_required');
    const state = await openState(second.requestState as string);
    expect(state).not.toContain(SECRET);

    const done = record(
      await callTool(
        served.wire,
        'link_courier_account',
        {},
        {
          requestState: second.requestState,
          inputResponses: { label: { action: 'accept', content: { value: 'Night shift' } } },
        },
        { capabilities },
      ),
    );
    const text = (done.content as { text: string }[])[0]!.text;
    expect(text).toBe(
      `Courier account linked: Night shift (${SECRET.length} characters; shown as [secret]).`,
    );
    expect(linked.at(-1)).toBe(SECRET);
    // The call ended: its secret is gone from the store.
    expect(await store.getValue(`answer:${pageIdOf(question.params.url)}`)).toBeUndefined();

    for (const reply of received) expect(reply).not.toContain(SECRET);
    for (const line of logged) expect(line).not.toContain(SECRET);
    const spans = JSON.stringify(
      exporter.getFinishedSpans().map((span) => [span.name, span.attributes, span.events]),
    );
    expect(spans).toContain('link_courier_account');
    expect(spans).not.toContain(SECRET);
  });
});

describe('ask.secret() for clients that cannot open URLs', () => {
  it('goes by link on 2026-07-28, and the parked state holds no trace of the key', async () => {
    // A form-only client that carries a parked call's resume token back, as Parley's client does.
    const capabilities = { ...CAPABILITIES.formOnly, ...CAPABILITIES.resumes };
    const first = record(await callTool(served.wire, 'link_courier_account', { n: 1 }, {}, { capabilities }));
    const link = pageLinkIn((first.content as { text: string }[])[0]!.text);
    await person.answer(link, { action: 'accept', content: { value: SECRET } });
    // The call comes again: the key is read from its sealed answer, then the next question is in-band.
    const second = record(
      await callTool(
        served.wire,
        'link_courier_account',
        { n: 1 },
        resuming(resumeTokenOf(first), capabilities),
        { capabilities },
      ),
    );
    expect(second.resultType).toBe('input_required');
    expect(await openState(second.requestState as string, { n: 1 })).not.toContain(SECRET);
    const done = record(
      await callTool(
        served.wire,
        'link_courier_account',
        { n: 1 },
        {
          requestState: second.requestState,
          inputResponses: { label: { action: 'accept', content: { value: 'Day' } } },
        },
        { capabilities },
      ),
    );
    expect((done.content as { text: string }[])[0]!.text).toContain('Courier account linked: Day');
    expect(linked.at(-1)).toBe(SECRET);
    expect(await store.getValue(`answer:${pageIdOf(link)}`)).toBeUndefined();
    for (const reply of received) expect(reply).not.toContain(SECRET);
  });

  it('goes by link on 2025-11-25 for a form-only client, and on through the session', async () => {
    const client = await connectHandshake(
      { url: served.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: () => ({ action: 'accept', content: { value: 'Weekend' } }),
      },
    );
    const waiting = await client.callTool('link_courier_account', { n: 2 });
    received.push(JSON.stringify(waiting));
    const link = pageLinkIn(textOf(waiting));
    await person.answer(link, { action: 'accept', content: { value: SECRET } });
    const done = await client.callTool('link_courier_account', { n: 2 });
    received.push(JSON.stringify(done), JSON.stringify(client.received));
    expect(textOf(done)).toBe(
      `Courier account linked: Weekend (${SECRET.length} characters; shown as [secret]).`,
    );
    expect(await store.getValue(`answer:${pageIdOf(link)}`)).toBeUndefined();
    for (const reply of received) expect(reply).not.toContain(SECRET);
    for (const line of logged) expect(line).not.toContain(SECRET);
    await client.close();
  });
});

describe('the form guardrail around secrets', () => {
  it('still refuses a secret-looking field that is not ask.secret(), naming the fix', async () => {
    const server = createServer({ name: 'g', version: '1', log: () => {} });
    server.tool('t', {}, async (_args, ctx) => {
      await ctx.elicit('Sign in', ask.form({ user: ask.text(), password: ask.text() }));
      return 'no';
    });
    const guarded = await serveInProcess(server);
    try {
      const reply = await callTool(guarded.wire, 't', {}, {}, { capabilities: CAPABILITIES.formAndUrl });
      const text = ((reply.message.result?.content as { text: string }[]) ?? [])[0]?.text ?? '';
      expect(reply.message.result?.isError).toBe(true);
      expect(text).toContain("'password'");
      expect(new SecretInFormError([{ name: 'password', looksLike: 'a password' }]).message).toContain(
        'ask.secret()',
      );
    } finally {
      await guarded.close();
    }
  });

  it('refuses a store password on both eras, as a field name, a title and a message (issue 41, finding 0)', async () => {
    const server = createServer({ name: 'g', version: '1', log: () => {} });
    const asks: Record<string, (ctx: ParleyContext) => Promise<unknown>> = {
      by_name: (ctx) => ctx.elicit('Connect your store', ask.form({ store_password: ask.text() })),
      by_title: (ctx) =>
        ctx.elicit('Connect your store', ask.form({ value: ask.text({ title: 'Store password' }) })),
      by_message: (ctx) => ctx.elicit('Your store password, please', ask.text()),
      naming_a_key: (ctx) => ctx.elicit('Name your new API key (e.g. "CI deploy")', ask.text()),
    };
    for (const [name, asking] of Object.entries(asks)) {
      server.tool(name, {}, async (_args, ctx) => {
        await asking(ctx);
        return 'sent';
      });
    }
    const guarded = await serveInProcess(server);
    const seen: string[] = [];
    const legacy = await connectHandshake(
      { url: guarded.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: (request) => {
          seen.push(JSON.stringify(request.params));
          return { action: 'decline' };
        },
      },
    );
    try {
      for (const name of ['by_name', 'by_title', 'by_message']) {
        const modern = await callTool(guarded.wire, name, {}, {}, { capabilities: CAPABILITIES.formAndUrl });
        const text = ((modern.message.result?.content as { text: string }[]) ?? [])[0]?.text ?? '';
        expect(modern.message.result?.isError, name).toBe(true);
        expect(text).toMatch(/asks for .*a password.*ask\.secret\(\)/);
        expect(JSON.stringify(modern.message.result)).not.toContain('input_required');
        const old = await legacy.callTool(name);
        expect(old.isError, name).toBe(true);
        expect(textOf(old)).toMatch(/asks for .*a password.*ask\.secret\(\)/);
      }
      expect(seen).toEqual([]);
      const naming = await callTool(
        guarded.wire,
        'naming_a_key',
        {},
        {},
        { capabilities: CAPABILITIES.formAndUrl },
      );
      expect(naming.message.result?.resultType).toBe('input_required');
      expect((await legacy.callTool('naming_a_key')).isError).toBeFalsy();
      expect(seen).toHaveLength(1);
    } finally {
      await legacy.close();
      await guarded.close();
    }
  });
});
