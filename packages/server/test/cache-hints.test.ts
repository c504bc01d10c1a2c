// Caching hints on 2026-07-28 results over real HTTP: the setting per method, the default (do not
// cache) elsewhere, a result's own hints kept, and never a hint on a question, whose state is
// sealed for one round only.
import { ask, createServer, type Listening, resourceResult } from '@parley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpWire } from './wire/http-wire.js';
import type { ModernWire } from './wire/modern-envelope.js';

let listening: Listening;
let wire: ModernWire;

beforeAll(async () => {
  const server = createServer({
    name: 'cache-test',
    version: '1.0.0',
    log: () => {},
    cacheHints: { 'resources/read': { ttlMs: 60_000, cacheScope: 'public' } },
  });
  server.resource('docs://guide', { name: 'guide' }, ({ uri }) => resourceResult({ uri, text: 'Guide' }));
  server.resource(
    'docs://today',
    { name: 'today' },
    ({ uri }) =>
      ({ ...resourceResult({ uri, text: 'Today' }), ttlMs: 5_000, cacheScope: 'private' }) as never,
  );
  server.resource('docs://private', { name: 'private' }, async ({ uri }, ctx) => {
    const ok = await ctx.elicit('Show the private notes?', ask.boolean({ title: 'Show?' }));
    return resourceResult({ uri, text: ok.action === 'accept' && ok.value ? 'Notes' : 'Hidden' });
  });
  listening = await server.listen({ port: 0 });
  wire = httpWire(listening.url);
});
afterAll(() => listening?.close());

const read = async (uri: string) => (await wire.request('resources/read', { uri })).message.result;

describe('caching hints', () => {
  it('the setting for resources/read, a result that carries its own kept, the default on lists', async () => {
    expect(await read('docs://guide')).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await read('docs://today')).toMatchObject({ ttlMs: 5_000, cacheScope: 'private' });
    const list = (await wire.request('resources/list', {})).message.result;
    expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('never on a question: an input_required result carries no hint', async () => {
    const asked = await read('docs://private');
    expect(asked?.resultType).toBe('input_required');
    expect(asked).not.toHaveProperty('ttlMs');
    expect(asked).not.toHaveProperty('cacheScope');
  });
});
