// A tool whose input schema checks asynchronously (a Standard Schema whose `validate` answers with a
// promise, as one that looks a name up would): its arguments are still checked before the handler
// runs, on both eras, and a check that fails is the server's failure, reported with a reference.
// Most schemas answer at once, and the server looks such a tool up without a promise; this is the
// other branch. (Hand-written rather than a zod async refinement: zod leaves a refinement's own
// rejection unhandled besides rejecting the check.)
import { ask, createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHandshake, type HandshakeConnection, textOf } from './wire/handshake-client.js';
import { httpWire } from './wire/http-wire.js';
import { callTool } from './wire/modern-envelope.js';

let listening: Listening;
let runs = 0;
const logged: string[] = [];

/** What the schema's check answers (a Standard Schema result). */
type Checked =
  | { readonly value: { readonly name: string } }
  | { readonly issues: readonly { readonly message: string; readonly path: readonly string[] }[] };

/** Taken, as far as this test's lookup knows (it answers after a tick, as a database would). */
const TAKEN = new Set(['ann']);

beforeAll(async () => {
  const server = createServer({
    name: 'async-schema-test',
    version: '1.0.0',
    log: (_level, message) => logged.push(message),
  });
  const input = {
    '~standard': {
      version: 1,
      vendor: 'parley-test',
      validate: async (value: unknown): Promise<Checked> => {
        await new Promise((resolve) => setImmediate(resolve));
        const name = (value as { name?: unknown }).name;
        if (name === 'boom') throw new Error('the lookup is down');
        if (typeof name !== 'string') return { issues: [{ message: 'a name is required', path: ['name'] }] };
        if (TAKEN.has(name)) return { issues: [{ message: 'that name is taken', path: ['name'] }] };
        return { value: { name } };
      },
      jsonSchema: {
        input: () => ({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
        output: () => ({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
      },
    },
  } as const;
  server.tool('claim', { input }, async ({ name }: { name: string }, ctx) => {
    runs++;
    const reply = await ctx.elicit(`Claim ${name}?`, ask.form({ sure: ask.boolean() }));
    return reply.action === 'accept' && reply.value.sure ? `Claimed ${name}` : 'Not claimed';
  });
  listening = await server.listen({ port: 0 });
});
afterAll(() => listening?.close());

describe('a tool whose input schema checks asynchronously', () => {
  let client: HandshakeConnection;
  beforeAll(async () => {
    client = await connectHandshake(
      { url: listening.url },
      {
        capabilities: { elicitation: { form: {} } },
        answer: () => ({ action: 'accept', content: { sure: true } }),
      },
    );
  });
  afterAll(() => client?.close());

  it('2025 session: runs the handler (which asks over the session) for valid arguments', async () => {
    const before = runs;
    const result = await client.callTool('claim', { name: 'bo' });
    expect(textOf(result)).toBe('Claimed bo');
    expect(result.isError).toBeFalsy();
    expect(runs).toBe(before + 1);
  });

  it('2025 session: refuses invalid arguments with the schema message, without running the handler', async () => {
    const before = runs;
    const result = await client.callTool('claim', { name: 'ann' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Invalid arguments for tool claim: name: that name is taken');
    expect(runs).toBe(before);
  });

  it('2025 session: a check that throws is an internal error with a reference, its details in the log', async () => {
    const before = runs;
    const result = await client.callTool('claim', { name: 'boom' });
    expect(result.isError).toBe(true);
    const reference = /tools\/call request failed with an internal error \(reference ([0-9a-f]{8})\)/.exec(
      textOf(result),
    )?.[1];
    expect(reference).toBeDefined();
    expect(logged.some((line) => line.includes(reference!) && line.includes('the lookup is down'))).toBe(
      true,
    );
    expect(textOf(result)).not.toContain('the lookup is down');
    expect(runs).toBe(before);
  });

  it('2026-07-28: refuses invalid arguments the same way, without running the handler', async () => {
    const before = runs;
    const refused = await callTool(httpWire(listening.url), 'claim', { name: 'ann' });
    expect(refused.message.result?.isError).toBe(true);
    expect(JSON.stringify(refused.message.result?.content)).toContain(
      'Invalid arguments for tool claim: name: that name is taken',
    );
    expect(runs).toBe(before);
  });
});
