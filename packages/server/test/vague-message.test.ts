import { ask, createServer, input } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, textOf } from './wire/handshake-client.js';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { CAPABILITIES, callTool } from './wire/modern-envelope.js';

// A message that says nothing about what is asked ends the call with the AuthorError that names
// the fix, in every way a handler asks, before anything is sent; `allowVagueMessage` sends it.

let served: InProcess;

beforeAll(async () => {
  const server = createServer({ name: 'vague', version: '1.0.0', log: () => {} });
  server.tool('elicit', {}, async (_args, ctx) => {
    await ctx.elicit('Input needed', ask.integer());
    return 'asked';
  });
  server.tool('confirm', {}, async (_args, ctx) => {
    await ctx.confirm('Please provide input');
    return 'asked';
  });
  server.tool('batch', {}, async (_args, ctx) => {
    await ctx.elicitAll({ city: ['Which city?', ask.text()], more: ['More information needed', ask.text()] });
    return 'asked';
  });
  server.tool('url', {}, async (_args, ctx) => {
    await ctx.elicitUrl('Input required', 'https://example.com/connect');
    return 'asked';
  });
  server.tool('allowed', {}, async (_args, ctx) => {
    const one = await ctx.elicit('Input needed', ask.integer(), { key: 'one', allowVagueMessage: true });
    const two = await ctx.elicitAll({
      two: input.elicit('Please provide input', ask.text(), { allowVagueMessage: true }),
    });
    return `${one.action} ${two.two.action}`;
  });
  served = await serveInProcess(server);
});
afterAll(async () => {
  await served?.close();
});

describe('vague messages', () => {
  it.each(['elicit', 'confirm', 'batch', 'url'])(
    '%s: refused before anything is sent (2026-07-28)',
    async (tool) => {
      const reply = await callTool(served.wire, tool, {}, {}, { capabilities: CAPABILITIES.formAndUrl });
      const result = reply.message.result!;
      expect(result.resultType).toBe('complete');
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(
        /question's message must say what is asked and why; ".*" says neither\. Name it/,
      );
    },
  );

  it('refused on a 2025 session too, with nothing sent to the client', async () => {
    const client = await connectHandshake(
      { url: served.url },
      { capabilities: { elicitation: { form: {} } }, answer: () => ({ action: 'decline' }) },
    );
    const result = await client.callTool('elicit');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('"Input needed" says neither');
    expect(client.received.filter((request) => request.method === 'elicitation/create')).toEqual([]);
    await client.close();
  });

  it('sends a vague message its author allowed', async () => {
    const first = (await callTool(served.wire, 'allowed', {}, {}, { capabilities: CAPABILITIES.formAndUrl }))
      .message.result!;
    expect(first.resultType).toBe('input_required');
    const asked = first.inputRequests as Record<string, { params: { message: string } }>;
    expect(asked.one!.params.message).toBe('Input needed');
  });
});
