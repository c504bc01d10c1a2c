// The long runs of test/hostile-input.test.ts and test/hostile-schemas.test.ts: random
// inputResponses never crash a server or reach a handler unchecked; random requested schemas never
// make the schema checks throw.
import { expect, it } from 'vitest';
import { checkRandomInputResponses } from '../hostile/input-property.js';
import { checkRandomSchemas } from '../hostile/schema-property.js';
import { RING_ONE, target } from '../hostile/targets.js';
import { FUZZ_TIMEOUT, fuzzRuns, fuzzSeed, report } from './budget.js';

it(
  'fuzz: random inputResponses never crash the server and never reach a handler unchecked',
  async () => {
    const counts = await checkRandomInputResponses(
      target('input', 'hostile-input', RING_ONE),
      fuzzRuns(20_000),
      fuzzSeed(),
    );
    console.log(report('random inputResponses', counts));
    expect(counts.get('completed')).toBeGreaterThan(0);
  },
  FUZZ_TIMEOUT,
);

it(
  'fuzz: random requested schemas never make the schema checks throw',
  () => {
    const { checked, fitting, accepted } = checkRandomSchemas(fuzzRuns(100_000), fuzzSeed());
    console.log(
      `random requested schemas: ${checked} cases (${fitting} fit the subset, ${accepted} random answers accepted)`,
    );
    expect(fitting).toBeGreaterThan(0);
  },
  FUZZ_TIMEOUT,
);
