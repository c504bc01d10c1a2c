import { describe, expect, it } from 'vitest';
import { extensionClientScenarios, REVISIONS, scoredClientScenarios } from './requirements.js';
import { runSuite } from './run-suite.js';

// Every client scenario each revision's frozen requirements score, run one by one (the suite's
// --requirements mode starts them all at once, which a busy two-core machine cannot serve in its
// 30-second client timeout) at that revision's wire version, with no expected-failures file; and
// every client scenario of the auth extensions, which a revision runs unscored, forced onto the
// same wire versions (they are not on the spec timeline, so the suite skips them without --force).
const CLIENT_COMMAND = 'node conformance/dist/client.js';
const RUNS = REVISIONS.flatMap((revision) => [
  ...scoredClientScenarios(revision).map(
    (scenario) => [`${scenario} @ ${revision}`, scenario, revision, false] as const,
  ),
  ...extensionClientScenarios(revision).map(
    (scenario) => [`${scenario} (extension) @ ${revision}`, scenario, revision, true] as const,
  ),
]);

/** The auth extension scenarios the suite has for clients (issue 27); all must run and pass. */
const AUTH_EXTENSIONS = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

// Two scenarios at a time: each starts the suite and a client (two Node processes), and the e2e
// project runs other files alongside, on two cores.
const slots = limit(2);

// SKIPPED marks a check that does not apply; INFO entries are the suite's log of the traffic.
const NEUTRAL = new Set(['SKIPPED', 'INFO']);

describe('Parley client against the frozen client requirements', () => {
  it('reads a non-empty scored list for each revision', () => {
    for (const revision of REVISIONS) expect(scoredClientScenarios(revision).length).toBeGreaterThan(10);
  });

  it('reads every auth extension scenario from each revision', () => {
    for (const revision of REVISIONS) {
      expect(extensionClientScenarios(revision)).toEqual(expect.arrayContaining(AUTH_EXTENSIONS));
    }
  });

  // One retry: on a machine shared with other work a scenario's server can miss the suite's deadline.
  // The timeout covers the wait for a slot behind the other scenarios.
  it.concurrent.each(RUNS)(
    '%s',
    { retry: 1, timeout: 30 * 60_000 },
    async (_label, scenario, revision, force) => {
      const checks = await slots(() =>
        runSuite([
          'client',
          '--command',
          CLIENT_COMMAND,
          '--scenario',
          scenario,
          '--spec-version',
          revision,
          '--timeout',
          '90000',
          ...(force ? ['--force'] : []),
        ]),
      );
      expect(checks.length).toBeGreaterThan(0);
      const notPassing = checks.filter((check) => check.status !== 'SUCCESS' && !NEUTRAL.has(check.status));
      expect(notPassing, JSON.stringify(notPassing, null, 2)).toEqual([]);
    },
  );
});

/** Runs at most `size` of the given tasks at once, the rest in the order they asked. */
function limit(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
