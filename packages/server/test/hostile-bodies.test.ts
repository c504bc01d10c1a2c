// Hostile HTTP request bodies, over real HTTP: invalid UTF-8, JSON nested deeper than the endpoint
// reads (in the arguments, an answer, _meta, or the whole body), bodies over the limit (declared or
// streamed) and random bytes are each refused with a clear JSON-RPC error, and the server keeps
// serving. The long run is `npm run fuzz` (test/fuzz/hostile-bodies.fuzz.ts).
import { ask, createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkHostileBodies } from './hostile/body-property.js';

const LIMIT = 64 * 1024;
let listening: Listening;
let handlerRuns = 0;

beforeAll(async () => {
  const server = createServer({ name: 'hostile-bodies', version: '1.0.0', log: () => {} });
  server.tool('asks', { description: 'Asks one question.' }, async (_args, ctx) => {
    handlerRuns++;
    const note = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return note.action;
  });
  listening = await server.listen({ port: 0, maxBodyBytes: LIMIT });
});
afterAll(() => listening.close());

it('refuses every hostile body with a clear error and keeps serving (400 bodies, real HTTP)', async () => {
  const counts = await checkHostileBodies(listening.url, LIMIT, 400);
  console.log(`hostile bodies: ${[...counts].map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
  expect(counts.size).toBeGreaterThanOrEqual(5);
  // Only the last request, the well-formed one, reached the handler.
  expect(handlerRuns).toBe(1);
});
