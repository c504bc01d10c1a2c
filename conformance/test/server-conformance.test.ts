import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, startServer } from './run-suite.js';

// Every server scenario the issue names, on each spec version it applies to (27 runs).
const RUNS: readonly (readonly [scenario: string, specVersion?: string | undefined])[] = [
  ['input-required-result-basic-elicitation', undefined],
  ['input-required-result-basic-sampling', undefined],
  ['input-required-result-basic-list-roots', undefined],
  ['input-required-result-request-state', undefined],
  ['input-required-result-multiple-input-requests', undefined],
  ['input-required-result-multi-round', undefined],
  ['input-required-result-missing-input-response', undefined],
  ['input-required-result-non-tool-request', undefined],
  ['input-required-result-result-type', undefined],
  ['input-required-result-unsupported-methods', undefined],
  ['input-required-result-tampered-state', undefined],
  ['input-required-result-capability-check', undefined],
  ['input-required-result-ignore-extra-params', undefined],
  ['input-required-result-validate-input', undefined],
  ['server-stateless', undefined],
  ['tools-call-elicitation', '2025-06-18'],
  ['tools-call-elicitation', '2025-11-25'],
  ['elicitation-sep1034-defaults', '2025-11-25'],
  ['elicitation-sep1330-enums', '2025-11-25'],
  ['tools-list', '2025-06-18'],
  ['tools-list', '2025-11-25'],
  ['tools-list', '2026-07-28'],
  ['tools-call-simple-text', '2025-06-18'],
  ['tools-call-simple-text', '2025-11-25'],
  ['tools-call-simple-text', '2026-07-28'],
  ['server-initialize', '2025-06-18'],
  ['server-initialize', '2025-11-25'],
];

const SERVERS = [
  ['Parley', resolve(import.meta.dirname, '../dist/server.js')],
  ['the raw official SDK', resolve(import.meta.dirname, '../dist/raw-sdk-server.js')],
] as const;

describe.each(SERVERS)('conformance suite against %s', (_name, script) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer(script);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const labelled = RUNS.map(
    ([scenario, specVersion]) =>
      [`${scenario}${specVersion ? ` @ ${specVersion}` : ''}`, scenario, specVersion] as const,
  );
  it.concurrent.each(labelled)('%s', async (_label, scenario, specVersion) => {
    const args: string[] = ['server', '--url', server.url, '--scenario', scenario as string];
    if (specVersion) args.push('--spec-version', specVersion);
    const checks = await runSuite(args);
    expect(checks.length).toBeGreaterThan(0);
    // SKIPPED is how the suite marks a check that does not apply (e.g. no list-changed support).
    const notPassing = checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'SKIPPED');
    expect(notPassing, JSON.stringify(notPassing, null, 2)).toEqual([]);
  });
});
