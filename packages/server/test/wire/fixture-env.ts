import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** The compiled fixture server (`npx tsc -b packages/server/test` builds it). */
export const FIXTURE_SCRIPT = fileURLToPath(new URL('../dist/fixtures/parley-fixture.js', import.meta.url));

/** `PARLEY_FIXTURE_*` settings and `PARLEY_STATE_KEYS`, as environment variables. */
export type FixtureEnv = Record<string, string>;

/** A fresh 32-byte secret for one key of a ring. */
export const newSecret = (): string => randomBytes(32).toString('base64');

/** A `PARLEY_STATE_KEYS` value: `id:secret` pairs, sealing key first. */
export const keyRing = (...keys: readonly (readonly [id: string, secret: string])[]): string =>
  keys.map(([id, secret]) => `${id}:${secret}`).join(',');

/** The child's environment: this process's, minus any keys, plus the fixture's settings. */
export function childEnv(env: FixtureEnv): NodeJS.ProcessEnv {
  const { PARLEY_STATE_KEYS: _ignored, ...inherited } = process.env;
  return { ...inherited, ...env };
}
