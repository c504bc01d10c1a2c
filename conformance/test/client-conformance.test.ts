import { describe, expect, it } from 'vitest';
import { runSuite } from './run-suite.js';

// The suite runs `<command> <server-url>`; this is the client command the issue names.
const CLIENT_COMMAND = 'npm run -s conformance:client --';

// Every client scenario the issue names (6 runs), with the checks each must pass.
const RUNS = [
  { scenario: 'initialize', specVersion: undefined, checks: ['mcp-client-initialization'] },
  { scenario: 'tools_call', specVersion: '2025-11-25', checks: ['tool-add-numbers', 'wire-schema-valid'] },
  { scenario: 'tools_call', specVersion: '2026-07-28', checks: ['tool-add-numbers', 'wire-schema-valid'] },
  {
    scenario: 'elicitation-sep1034-client-defaults',
    specVersion: undefined,
    checks: ['string', 'integer', 'number', 'enum', 'boolean'].map(
      (kind) => `client-elicitation-sep1034-${kind}-default`,
    ),
  },
  {
    // Introduced in 2026-07-28, so the suite runs it on that version without --spec-version.
    scenario: 'sep-2322-client-request-state',
    specVersion: undefined,
    checks: [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-no-state-omitted',
      'sep-2322-client-parallel-isolation',
      'sep-2322-default-result-type-complete',
    ],
  },
  {
    scenario: 'request-metadata',
    specVersion: undefined,
    checks: [
      'sep-2575-http-client-sends-version-header',
      'sep-2575-client-populates-meta',
      'sep-2575-client-sends-client-info',
      'sep-2575-http-version-header-matches-meta',
      'sep-2575-client-declares-elicitation-capability',
      'sep-2575-client-retry-supported-version',
    ],
  },
] as const;

// SKIPPED marks a check that does not apply (e.g. roots and sampling, which this client does not
// declare); INFO entries are the suite's log of the traffic. Everything else must be SUCCESS.
const NEUTRAL = new Set(['SKIPPED', 'INFO']);

describe('conformance suite against Parley client', () => {
  it.concurrent.each(
    RUNS.map((run) => [`${run.scenario}${run.specVersion ? ` @ ${run.specVersion}` : ''}`, run] as const),
  )('%s', async (_label, run) => {
    const args = ['client', '--command', CLIENT_COMMAND, '--scenario', run.scenario];
    if (run.specVersion) args.push('--spec-version', run.specVersion);
    const checks = await runSuite(args);
    const notPassing = checks.filter((check) => check.status !== 'SUCCESS' && !NEUTRAL.has(check.status));
    expect(notPassing, JSON.stringify(notPassing, null, 2)).toEqual([]);
    const passed = new Set(checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id));
    expect(run.checks.filter((id) => !passed.has(id))).toEqual([]);
  });
});
