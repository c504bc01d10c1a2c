// The long run of test/hostile-state.test.ts: 20,000 mutations of valid sealed states in process
// and 2,000 over real HTTP, every one refused with -32602 before any handler runs.
import { describe, expect, it } from 'vitest';
import { checkStateMutations } from '../hostile/state-property.js';
import { targets, targetsOverHttp } from '../hostile/targets.js';
import { FUZZ_TIMEOUT, fuzzRuns, fuzzSeed, report } from './budget.js';

describe('fuzz: mutated and misplaced sealed states', () => {
  it(
    'are all refused with -32602 and no handler runs (in process)',
    async () => {
      const counts = await checkStateMutations(targets(), fuzzRuns(20_000), { seed: fuzzSeed() });
      console.log(report('sealed-state mutations, in process', counts));
      expect(counts.size).toBe(14);
    },
    FUZZ_TIMEOUT,
  );

  describe('over real HTTP', () => {
    const { servers, urls } = targetsOverHttp();

    it(
      'are all refused with -32602 and no handler runs',
      async () => {
        const counts = await checkStateMutations(servers, fuzzRuns(2_000), {
          send: (name) => (request) => fetch(new Request(urls.get(name)!, request)),
          seed: fuzzSeed(),
        });
        console.log(report('sealed-state mutations, over HTTP', counts));
      },
      FUZZ_TIMEOUT,
    );
  });
});
