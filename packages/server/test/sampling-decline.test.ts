// A person who declines a sampling request, as each era carries it (issue 17). On the 2025 eras the
// client answers `sampling/createMessage` with JSON-RPC error -1 ("User rejected sampling
// request", the specs' own example): ctx.sample throws SamplingDeclinedError, which a tool may
// catch; uncaught, the call ends with its message as a tool error. Here the client is the official
// SDK's, so the mapping does not lean on Parley's own client. On 2026-07-28 a declining client does
// not retry; a client that answers the sampling key with a decline anyway gets -32602 saying so.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, SamplingDeclinedError } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { callTool } from './wire/modern-envelope.js';
import { errorOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';

const REQUEST = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarise the ticket.' } }],
  maxTokens: 40,
};

function summariser() {
  const server = createServer({ name: 'summariser', version: '1.0.0' });
  server.tool('summarise', { description: 'Needs the model' }, async (_args, ctx) => {
    const reply = await ctx.sample(REQUEST, { key: 'summary' });
    return reply.content.type === 'text' ? reply.content.text : '(not text)';
  });
  server.tool('summarise_or_not', { description: 'Does without the model' }, async (_args, ctx) => {
    try {
      return (await ctx.sample(REQUEST, { key: 'summary' })).model;
    } catch (error) {
      if (error instanceof SamplingDeclinedError) return `declined, code ${error.code}`;
      throw error;
    }
  });
  return server;
}

let served: InProcess;
beforeAll(async () => {
  served = await serveInProcess(summariser());
});
afterAll(() => served?.close());

/** The SDK client on 2025-11-25, declaring sampling and answering it with `answer`. */
async function sdkClient(answer: () => never): Promise<Client> {
  const client = new Client(
    { name: 'sdk-client', version: '1.0.0' },
    { capabilities: { sampling: {} }, supportedProtocolVersions: ['2025-11-25'] },
  );
  client.setRequestHandler('sampling/createMessage', answer);
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  return client;
}

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0]?.text ?? '') as string;
}

describe('a declined sampling request on 2025-11-25', () => {
  let rejecting: Client;
  beforeAll(async () => {
    rejecting = await sdkClient(() => {
      throw new ProtocolError(-1, 'User rejected sampling request');
    });
  });
  afterAll(() => rejecting?.close());

  it('reaches the handler as SamplingDeclinedError, which it may catch', async () => {
    expect(textOf(await rejecting.callTool({ name: 'summarise_or_not' }))).toBe('declined, code -1');
  });

  it('uncaught, ends the call with a tool error that says what happened and what to do', async () => {
    const result = await rejecting.callTool({ name: 'summarise' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "The person declined this server's model request (sampling), so the call has no model reply. " +
        'Catch SamplingDeclinedError around ctx.sample() to finish without it.',
    );
  });

  it('is not claimed for other client errors', async () => {
    const failing = await sdkClient(() => {
      throw new ProtocolError(-32603, 'the model is down');
    });
    try {
      // The tool did not catch it as a decline: the call ends with the client's own error.
      const outcome = await failing.callTool({ name: 'summarise_or_not' }).then(
        (result) => textOf(result),
        (error: Error) => error.message,
      );
      expect(outcome).toContain('the model is down');
      expect(outcome).not.toContain('declined');
    } finally {
      await failing.close();
    }
  });
});

describe('a declined sampling request on 2026-07-28', () => {
  it('is never answered by a spec client; a decline sent anyway is -32602 that says so', async () => {
    const capabilities = { sampling: {} };
    const first = inputRequiredOf(await callTool(served.wire, 'summarise', {}, {}, { capabilities }));
    expect(first.inputRequests.summary?.method).toBe('sampling/createMessage');
    const error = errorOf(
      await callTool(
        served.wire,
        'summarise',
        {},
        { inputResponses: { summary: { action: 'decline' } }, requestState: first.requestState },
        { capabilities },
      ),
      -32602,
    );
    expect(error.message).toContain('does not retry the call on 2026-07-28');
    const answered = toolResultOf(
      await callTool(
        served.wire,
        'summarise',
        {},
        {
          inputResponses: {
            summary: { role: 'assistant', content: { type: 'text', text: 'Late parcel.' }, model: 'm' },
          },
          requestState: first.requestState,
        },
        { capabilities },
      ),
    );
    expect(answered).toEqual({ text: 'Late parcel.', isError: false });
  });
});
