import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, textOf } from '../wire/handshake-client.js';
import { CAPABILITIES, callTool, type ModernReply, type ModernWire } from '../wire/modern-envelope.js';
import { PagePerson, pageLinkIn } from '../wire/page-person.js';
import { startStdioWire } from '../wire/stdio-wire.js';

// A stdio server has no HTTP listener of its own: the first question asked on a page starts a
// loopback listener that serves it (a real process, a real browser request over loopback).

const person = new PagePerson();
let wire: ModernWire;
beforeAll(async () => {
  wire = await startStdioWire();
});
afterAll(() => wire?.close());

const resultOf = (reply: ModernReply) => {
  expect(reply.message.error).toBeUndefined();
  return reply.message.result!;
};

describe('question pages of a stdio server', () => {
  it('are served on a loopback listener started for the first page (2026-07-28, URL mode)', async () => {
    const first = resultOf(
      await callTool(wire, 'pickup_date', {}, {}, { capabilities: CAPABILITIES.urlOnly }),
    );
    const url = (first.inputRequests as Record<string, { params: { url: string } }>).date!.params.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/parley\/questions\/[\w-]{43}$/);
    const answered = await person.answer(url, { action: 'accept', content: { value: '2026-09-01' } });
    expect(answered.status).toBe(200);
    const done = resultOf(
      await callTool(
        wire,
        'pickup_date',
        {},
        { requestState: first.requestState, inputResponses: { date: { action: 'accept' } } },
        { capabilities: CAPABILITIES.urlOnly },
      ),
    );
    expect((done.content as { text: string }[])[0]!.text).toBe('Pickup on 2026-09-01.');
  });

  it('serve a 2025 stdio client that cannot be asked, through the link in the result', async () => {
    const client = await connectHandshake({ stdio: {} }, { capabilities: {} });
    const link = pageLinkIn(textOf(await client.callTool('pickup_date')));
    await person.answer(link, { action: 'decline' });
    expect(textOf(await client.callTool('pickup_date'))).toBe('No pickup (decline).');
    await client.close();
  });
});
