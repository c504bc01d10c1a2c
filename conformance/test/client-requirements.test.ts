import { describe, expect, it } from 'vitest';
import { REVISIONS, scoredClientScenarios } from './requirements.js';
import { runSuite } from './run-suite.js';

// Every client scenario each revision's frozen requirements score, run one by one (the suite's
// --requirements mode starts them all at once, which a busy two-core machine cannot serve in its
// 30-second client timeout) at that revision's wire version, with no expected-failures file.
const CLIENT_COMMAND = 'node conformance/dist/client.js';
const RUNS = REVISIONS.flatMap((revision) =>
  scoredClientScenarios(revision).map(
    (scenario) => [`${scenario} @ ${revision}`, scenario, revision] as const,
  ),
);

// SKIPPED marks a check that does not apply; INFO entries are the suite's log of the traffic.
const NEUTRAL = new Set(['SKIPPED', 'INFO']);

describe('Parley client against the frozen client requirements', () => {
  it('reads a non-empty scored list for each revision', () => {
    for (const revision of REVISIONS) expect(scoredClientScenarios(revision).length).toBeGreaterThan(10);
  });

  // One retry: on a machine shared with other work a scenario's server can miss the suite's deadline.
  it.concurrent.each(RUNS)('%s', { retry: 1 }, async (_label, scenario, revision) => {
    const checks = await runSuite([
      'client',
      '--command',
      CLIENT_COMMAND,
      '--scenario',
      scenario,
      '--spec-version',
      revision,
      '--timeout',
      '90000',
    ]);
    expect(checks.length).toBeGreaterThan(0);
    const notPassing = checks.filter((check) => check.status !== 'SUCCESS' && !NEUTRAL.has(check.status));
    expect(notPassing, JSON.stringify(notPassing, null, 2)).toEqual([]);
  });
});
