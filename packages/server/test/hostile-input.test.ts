// Hostile input to a Parley server: random inputResponses (any shape, hostile keys, answers that
// break their question's rules) never crash it and never reach a handler unchecked. The long run is
// `npm run fuzz` (test/fuzz/hostile-input.fuzz.ts).
import { describe, expect, it } from 'vitest';
import { checkRandomInputResponses } from './hostile/input-property.js';
import { RING_ONE, target } from './hostile/targets.js';

describe('random inputResponses', () => {
  it('never crash the server and never reach a handler unchecked (1,500 cases, in process)', async () => {
    const counts = await checkRandomInputResponses(target('input', 'hostile-input', RING_ONE), 1500);
    console.log(`random inputResponses: ${[...counts].map(([what, n]) => `${what} ${n}`).join('; ')}`);
    expect(counts.get('refused before the handler (not an object of result objects)')).toBeGreaterThan(0);
    expect(counts.get('completed')).toBeGreaterThan(0);
  });
});
