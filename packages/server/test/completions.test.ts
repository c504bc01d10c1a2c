// completion/complete over real HTTP on both eras: values from the registered completer (seeing the
// other arguments), at most 100 with the total, an empty list for an argument without a completer,
// -32602 for an unknown prompt or template, and a completer that throws answered without its details.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type Listening, promptResult, resourceResult } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { httpWire } from './wire/http-wire.js';
import type { ModernWire } from './wire/modern-envelope.js';

let listening: Listening;
let wire: ModernWire;
let client: Client;
const logged: string[] = [];

beforeAll(async () => {
  const server = createServer({
    name: 'completions-test',
    version: '1.0.0',
    log: (_level, message) => logged.push(message),
  });
  const numbers = Array.from({ length: 250 }, (_, i) => String(i));
  server.prompt(
    'pick',
    {
      args: z.object({ kind: z.string(), number: z.string(), note: z.string() }),
      complete: {
        kind: (typed) => ['even', 'odd'].filter((kind) => kind.startsWith(typed)),
        number: (typed, { arguments: filled }) =>
          numbers.filter((n) => n.startsWith(typed) && Number(n) % 2 === (filled.kind === 'odd' ? 1 : 0)),
      },
    },
    ({ kind, number }) => promptResult(`${kind} ${number}`),
  );
  server.resource(
    'files://{name}',
    {
      complete: {
        name: () => {
          throw new Error('the index at /secret/path is gone');
        },
      },
    },
    ({ uri }) => resourceResult({ uri, text: 'file' }),
  );
  listening = await server.listen({ port: 0 });
  wire = httpWire(listening.url);
  client = new Client({ name: 'completions-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
});
afterAll(async () => {
  await client?.close();
  await listening?.close();
});

const ref = { type: 'ref/prompt', name: 'pick' } as const;

describe('completion/complete', () => {
  it('2025-11-25: suggests from the completer with the other arguments, at most 100 with the total', async () => {
    expect(
      (await client.complete({ ref, argument: { name: 'kind', value: 'e' } })).completion.values,
    ).toEqual(['even']);
    const odd = await client.complete({
      ref,
      argument: { name: 'number', value: '1' },
      context: { arguments: { kind: 'odd' } },
    });
    expect(odd.completion.values.slice(0, 4)).toEqual(['1', '11', '13', '15']);
    expect(odd.completion.values.every((n) => Number(n) % 2 === 1)).toBe(true);
    const all = await client.complete({ ref, argument: { name: 'number', value: '' } });
    expect(all.completion).toMatchObject({ total: 125, hasMore: true });
    expect(all.completion.values).toHaveLength(100);
    const none = await client.complete({ ref, argument: { name: 'note', value: 'x' } });
    expect(none.completion).toMatchObject({ values: [], hasMore: false });
  });

  it('2026-07-28: the same answers, and -32602 for an unknown prompt or template', async () => {
    const even = await wire.request('completion/complete', { ref, argument: { name: 'kind', value: 'o' } });
    expect(even.message.result?.completion).toMatchObject({ values: ['odd'] });
    const unknownPrompt = await wire.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'nope' },
      argument: { name: 'x', value: '' },
    });
    expect(unknownPrompt.message.error).toMatchObject({ code: -32602 });
    expect(unknownPrompt.message.error?.message).toMatch(/prompts\/list/);
    const unknownTemplate = await wire.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'nope://{x}' },
      argument: { name: 'x', value: '' },
    });
    expect(unknownTemplate.message.error).toMatchObject({ code: -32602 });
  });

  it('a completer that throws: an internal error with a reference; the details only in the log', async () => {
    const failed = await wire.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'files://{name}' },
      argument: { name: 'name', value: 'a' },
    });
    expect(failed.message.error?.code).toBe(-32603);
    expect(failed.message.error?.message).not.toContain('secret');
    const reference = /reference (\w+)/.exec(failed.message.error?.message ?? '')?.[1];
    expect(reference).toBeDefined();
    expect(logged.some((line) => line.includes(reference!) && line.includes('/secret/path'))).toBe(true);
  });
});
