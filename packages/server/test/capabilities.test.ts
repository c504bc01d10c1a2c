// Questions go only to clients that declared they can show them, on both eras. With question pages
// off (createServer({ questionPages: false })), a form the client cannot show is -32021 (2026-07-28)
// or a tool error (2025), unless the handler falls back to plain text itself; with them on (the
// default), the same form reaches the person on a page (the ladder, tested in test/pages).
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHandshake,
  type HandshakeConnection,
  type HandshakeTarget,
  textOf,
} from './wire/handshake-client.js';
import { type HttpFixture, startHttpFixture } from './wire/http-fixture.js';
import { CAPABILITIES, callTool, type ModernWire, resumeTokenOf } from './wire/modern-envelope.js';
import { countersOf, errorOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';
import { startModernWire, type Transport } from './wire/start-modern.js';

const FORM_STEER =
  'Cannot ask: this client did not declare elicitation (form mode); ask the caller for the value in a tool ' +
  'argument instead, or use a host that supports elicitation.';
const URL_STEER =
  'Cannot ask: this client did not declare elicitation.url; ask with a form only if the data is not secret, ' +
  'or tell the person to open the page themselves.';
const FALLBACK = 'I need the pickup date: call pickup_date again once your client can show forms.';

const PAGES_OFF = { PARLEY_FIXTURE_QUESTION_PAGES: 'off' };

describe.each([['stdio'], ['http']] as [Transport][])(
  '2026-07-28 capabilities over %s, question pages off',
  (transport) => {
    let wire: ModernWire;
    beforeAll(async () => {
      wire = await startModernWire(transport, PAGES_OFF);
    });
    afterAll(() => wire?.close());

    it('answers -32021 with data.requiredCapabilities (HTTP 400) when the client declared no elicitation', async () => {
      for (const capabilities of [CAPABILITIES.none, { sampling: {} }, { roots: {} }]) {
        const reply = await callTool(wire, 'book_return', { order: 'C-1' }, {}, { capabilities });
        const error = errorOf(reply, -32021);
        expect(error.message).toBe(FORM_STEER);
        expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
        if (transport === 'http') expect(reply.status).toBe(400);
      }
    });

    it('lets a handler catch the missing capability and answer in plain text', async () => {
      const reply = await callTool(wire, 'pickup_date', {}, {}, { capabilities: CAPABILITIES.none });
      expect(toolResultOf(reply)).toEqual({ isError: false, text: FALLBACK });
      if (transport === 'http') expect(reply.status).toBe(200);
    });

    it('never sends url mode to a form-only client', async () => {
      for (const capabilities of [CAPABILITIES.formOnly, { elicitation: {} }]) {
        const reply = await callTool(wire, 'sign_in', {}, {}, { capabilities });
        const error = errorOf(reply, -32021);
        expect(error.message).toBe(URL_STEER);
        expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
        if (transport === 'http') expect(reply.status).toBe(400);
        const contact = inputRequiredOf(await callTool(wire, 'contact', {}, {}, { capabilities }));
        expect(contact.inputRequests.contact?.params.mode).toBe('form');
      }
    });

    it('never sends a form to a url-only client', async () => {
      const before = await countersOf(wire);
      const reply = await callTool(
        wire,
        'book_return',
        { order: 'C-2' },
        {},
        { capabilities: CAPABILITIES.urlOnly },
      );
      const error = errorOf(reply, -32021);
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
      expect((await countersOf(wire)).runs.book_return).toBe((before.runs.book_return ?? 0) + 1);

      const contact = inputRequiredOf(
        await callTool(wire, 'contact', {}, {}, { capabilities: CAPABILITIES.urlOnly }),
      );
      expect(contact.inputRequests.contact).toEqual({
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Open the contact page', url: 'https://store.example/contact' },
      });
    });

    it('reads the capabilities of each request afresh', async () => {
      const asUrl = inputRequiredOf(
        await callTool(wire, 'contact', {}, {}, { capabilities: CAPABILITIES.formAndUrl }),
      );
      expect(asUrl.inputRequests.contact?.params.mode).toBe('url');
      const asForm = inputRequiredOf(
        await callTool(wire, 'contact', {}, {}, { capabilities: CAPABILITIES.formOnly }),
      );
      expect(asForm.inputRequests.contact?.params.mode).toBe('form');
      const refused = await callTool(wire, 'contact', {}, {}, { capabilities: CAPABILITIES.none });
      errorOf(refused, -32021);
    });
  },
);

describe.each([['stdio'], ['http']] as [Transport][])(
  '2025 capabilities over %s, question pages off',
  (transport) => {
    let http: HttpFixture | undefined;
    let none: HandshakeConnection;
    let formOnly: HandshakeConnection;
    let urlOnly: HandshakeConnection;
    beforeAll(async () => {
      if (transport === 'http') http = await startHttpFixture(PAGES_OFF);
      const target: HandshakeTarget = http ? { url: http.url, user: 'alice' } : { stdio: PAGES_OFF };
      const connect = (capabilities: ClientCapabilities) =>
        connectHandshake(target, {
          capabilities,
          answer: (request) =>
            request.params.mode === 'url'
              ? { action: 'accept' }
              : { action: 'accept', content: { value: 'someone@example.com' } },
        });
      [none, formOnly, urlOnly] = await Promise.all([
        connect({}),
        connect({ elicitation: { form: {} } }),
        connect({ elicitation: { url: {} } }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([none, formOnly, urlOnly].map((connection) => connection?.close()));
      await http?.stop();
    });

    const modesAsked = (connection: HandshakeConnection) =>
      connection.received.map((request) => [request.method, request.params?.mode]);

    it('ends the call with the steer as a tool error when the client declared no elicitation, or the handler falls back', async () => {
      const refused = await none.callTool('book_return', { order: 'C-3' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(FORM_STEER);
      const fallback = await none.callTool('pickup_date');
      expect(fallback.isError).toBeFalsy();
      expect(textOf(fallback)).toBe(FALLBACK);
      expect(none.received).toEqual([]);
    });

    it('never sends url mode to a form-only client', async () => {
      const refused = await formOnly.callTool('sign_in');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(URL_STEER);
      expect(textOf(await formOnly.callTool('contact'))).toBe('Contact email: someone@example.com');
      expect(modesAsked(formOnly)).toEqual([['elicitation/create', 'form']]);
    });

    it('never sends a form to a url-only client', async () => {
      const refused = await urlOnly.callTool('book_return', { order: 'C-4' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(FORM_STEER);
      expect(textOf(await urlOnly.callTool('contact'))).toBe('Contact page: accept');
      expect(modesAsked(urlOnly)).toEqual([['elicitation/create', 'url']]);
    });
  },
);

describe.each([['stdio'], ['http']] as [Transport][])(
  '2026-07-28 capabilities over %s, question pages on',
  (transport) => {
    let wire: ModernWire;
    beforeAll(async () => {
      wire = await startModernWire(transport);
    });
    afterAll(() => wire?.close());

    it('sends a url-only client to a page of the server, never a form', async () => {
      const asked = inputRequiredOf(
        await callTool(wire, 'book_return', { order: 'C-5' }, {}, { capabilities: CAPABILITIES.urlOnly }),
      );
      const question = Object.values(asked.inputRequests)[0]!;
      expect(question.params.mode).toBe('url');
      expect(question.params.url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/parley\/questions\/[A-Za-z0-9_-]{43}$/,
      );
    });

    it('gives a client that declared no elicitation the page in an ordinary result', async () => {
      const reply = await callTool(
        wire,
        'book_return',
        { order: 'C-6' },
        {},
        { capabilities: CAPABILITIES.resumes },
      );
      const result = toolResultOf(reply);
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/Answer here: http:\/\/127\.0\.0\.1:\d+\/parley\/questions\//);
      expect(result.text).toContain('call book_return again with the same arguments');
      // Over HTTP an anonymous caller finds its call again only by the token it got (stdio is one caller).
      const token = resumeTokenOf(reply.message.result);
      if (transport === 'http') expect(token).toMatch(/^[\w-]{32}$/);
      else expect(token).toBeUndefined();
    });

    it('still refuses a URL question of the handler’s own to a form-only client', async () => {
      const reply = await callTool(wire, 'sign_in', {}, {}, { capabilities: CAPABILITIES.formOnly });
      expect(errorOf(reply, -32021).message).toBe(URL_STEER);
    });
  },
);
