import { ParleyError } from '@parley/client';
import { testClient } from '@parley/client/testing';
import { createServer, SamplingDeclinedError } from '@parley/server';
import { describe, expect, it } from 'vitest';

/** A tool that asks the client's model for a one-line summary (ctx.sample). */
function summariser() {
  const server = createServer({ name: 'summariser', version: '1.0.0' });
  server.tool('summarise', { description: 'Summarises with the client’s model' }, async (_args, ctx) => {
    if (!ctx.can('sampling')) return 'no model to ask';
    try {
      const reply = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: a late parcel.' } }],
          maxTokens: 40,
        },
        { key: 'summary' },
      );
      return reply.content.type === 'text' ? `Summary: ${reply.content.text}` : 'Summary: (not text)';
    } catch (error) {
      if (error instanceof SamplingDeclinedError) return 'No summary: the model request was declined.';
      throw error;
    }
  });
  return server;
}

function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

// Scripting a sampling reply (a CreateMessageResult keyed by the ctx.sample key) makes the test
// client declare sampling; a decline needs `sampling: true`, as nothing else says to declare it.
describe.each(['modern', 'handshake'] as const)('ctx.sample under test on the %s era', (era) => {
  it('gets the scripted reply, and records the request', async () => {
    const client = await testClient(summariser(), {
      era,
      answers: {
        summary: { role: 'assistant', content: { type: 'text', text: 'It is late.' }, model: 'test-model' },
      },
    });
    try {
      expect(textOf(await client.callTool('summarise'))).toBe('Summary: It is late.');
      expect(client.asked).toMatchObject([
        { mode: 'sampling', key: 'summary', message: 'Summarise: a late parcel.', round: 1 },
      ]);
    } finally {
      await client.close();
    }
  });

  it('declines: the tool catches SamplingDeclinedError on 2025; on 2026-07-28 the call ends unretried', async () => {
    const client = await testClient(summariser(), {
      era,
      sampling: true,
      answers: { summary: { action: 'decline' } },
    });
    try {
      const call = client.callTool('summarise');
      if (era === 'handshake') {
        expect(textOf(await call)).toBe('No summary: the model request was declined.');
      } else {
        const error = await call.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ParleyError);
        expect(error).toMatchObject({ kind: 'declined' });
      }
    } finally {
      await client.close();
    }
  });

  it('does not declare sampling when no sampling answer is scripted', async () => {
    const client = await testClient(summariser(), { era });
    try {
      expect(textOf(await client.callTool('summarise'))).toBe('no model to ask');
    } finally {
      await client.close();
    }
  });
});
