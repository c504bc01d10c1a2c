// A tool whose input schema checks asynchronously (a Standard Schema whose `validate` answers with a
// promise, as one that looks a name up would): its arguments are still checked before the handler
// runs, on both eras, and a check that fails is the server's failure, reported with a reference.
// Most schemas answer at once, and the server looks such a tool up without a promise; this is the
// other branch. The zod tool below has an async refinement a client can make throw: zod's own
// `~standard.validate` would run it twice and leave the first run's rejection unhandled (which
// ends a Node process; vitest reports it), so the server parses such schemas in zod's async mode.
import { ask, createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHandshake, type HandshakeConnection, textOf } from './wire/handshake-client.js';
import { httpWire } from './wire/http-wire.js';
import { callTool } from './wire/modern-envelope.js';

let listening: Listening;
let runs = 0;
let siteChecks = 0;
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
  server.tool(
    'visit',
    {
      input: z.object({
        site: z.string().refine(async (value) => {
          siteChecks++;
          await new Promise((resolve) => setImmediate(resolve));
          return new URL(value).protocol === 'https:';
        }, 'Use an https address'),
      }),
    },
    async ({ site }) => `Visiting ${site}`,
  );
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

describe('a zod tool with an async refinement that a client can make throw', () => {
  it('checks it once per call, on both eras, and the throw is an internal error, not the end of the server', async () => {
    const client = await connectHandshake({ url: listening.url }, { capabilities: {} });
    try {
      const before = siteChecks;
      const thrown = await client.callTool('visit', { site: 'not a url' });
      expect(thrown.isError).toBe(true);
      expect(textOf(thrown)).toMatch(/internal error \(reference [0-9a-f]{8}\)/);
      expect(textOf(await client.callTool('visit', { site: 'http://example.com' }))).toBe(
        'Invalid arguments for tool visit: site: Use an https address',
      );
      expect(textOf(await client.callTool('visit', { site: 'https://example.com' }))).toBe(
        'Visiting https://example.com',
      );
      expect(siteChecks).toBe(before + 3);
    } finally {
      await client.close();
    }
    const modern = await callTool(httpWire(listening.url), 'visit', { site: 'not a url either' });
    expect(JSON.stringify(modern.message)).toMatch(/internal error \(reference [0-9a-f]{8}\)/);
    const served = await callTool(httpWire(listening.url), 'visit', { site: 'https://example.org' });
    expect(JSON.stringify(served.message.result?.content)).toContain('Visiting https://example.org');
  });
});
