// The long run of test/hostile-bodies.test.ts: hostile HTTP bodies (invalid UTF-8, JSON nested too
// deep, over the limit, random bytes) each refused with a clear error, over real HTTP.
import { ask, createServer, type Listening } from '@parley/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkHostileBodies } from '../hostile/body-property.js';
import { FUZZ_TIMEOUT, fuzzRuns, fuzzSeed, report } from './budget.js';

const LIMIT = 64 * 1024;
let listening: Listening;

beforeAll(async () => {
  const server = createServer({ name: 'hostile-bodies', version: '1.0.0', log: () => {} });
  server.tool('asks', { description: 'Asks one question.' }, async (_args, ctx) => {
    const note = await ctx.elicit('A note?', ask.text(), { key: 'q' });
    return note.action;
  });
  listening = await server.listen({ port: 0, maxBodyBytes: LIMIT });
});
afterAll(() => listening.close());

it(
  'fuzz: every hostile body is refused with a clear error and the server keeps serving',
  async () => {
    const counts = await checkHostileBodies(listening.url, LIMIT, fuzzRuns(3_000), fuzzSeed());
    console.log(report('hostile HTTP bodies', counts));
    expect(counts.size).toBe(5);
  },
  FUZZ_TIMEOUT,
);
