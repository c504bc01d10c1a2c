import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SUITE } from './run-suite.js';

/** The spec revisions whose frozen client requirements Parley's client must pass. */
export const REVISIONS = ['2026-07-28', '2025-11-25'] as const;

/**
 * The client scenarios a revision scores, read from the suite's own frozen requirements file (the
 * `client:` list; `not_scored` entries are left out). The file is a plain YAML list, read line by
 * line so the test needs no YAML parser.
 */
export function scoredClientScenarios(revision: string): string[] {
  const file = join(dirname(SUITE), '..', 'requirements', `${revision}.yaml`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf('client:');
  if (start < 0) throw new Error(`${file} has no client: section`);
  const scenarios: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = /^ {2}- ([\w/.-]+)\s*$/.exec(line);
    if (item === null) break;
    scenarios.push(item[1]!);
  }
  return scenarios;
}

/**
 * The client scenarios of the protocol's optional extensions (the auth extensions: client
 * credentials, enterprise-managed authorization, workload identity, DPoP), which a revision runs
 * but does not score: its `not_scored` entries with `leg: client` and `reason: extension`.
 */
export function extensionClientScenarios(revision: string): string[] {
  const file = join(dirname(SUITE), '..', 'requirements', `${revision}.yaml`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const scenarios: string[] = [];
  let current: { scenario: string; leg?: string; reason?: string } | undefined;
  const keep = () => {
    if (current?.leg === 'client' && current.reason === 'extension') scenarios.push(current.scenario);
  };
  for (const line of lines.slice(lines.indexOf('not_scored:') + 1)) {
    const start = /^ {2}- scenario: ([\w/.-]+)\s*$/.exec(line);
    const field = /^ {4}(leg|reason): ([\w-]+)\s*$/.exec(line);
    if (start !== null) {
      keep();
      current = { scenario: start[1]! };
    } else if (field !== null && current !== undefined) {
      current[field[1] as 'leg' | 'reason'] = field[2]!;
    } else if (/^\S/.test(line)) break;
  }
  keep();
  return scenarios;
}
