import { defineConfig } from 'vitest/config';
import { SETTLE_TIMEOUT_MS } from './testing/src/test-waits.js';

// Unit tests sit beside the code they test (src/**/*.test.ts). Every project imports workspace
// packages from source through the "@parley/source" export condition. End-to-end tests (the test/
// folders: packages/*/test, examples/*/test, conformance/test, testing/test) drive real parts over
// real stdio and loopback HTTP: a server started in the test's own process, or a process spawned from
// a built file (a fixture compiled into test/dist/, a package's dist/, Chromium, Redis, tmux), which
// is why `npm test` builds first (its `pretest`).
const source = { conditions: ['@parley/source'] };

export default defineConfig({
  resolve: source,
  ssr: { resolve: { conditions: ['@parley/source'], externalConditions: ['@parley/source'] } },
  test: {
    // expect.poll waits for behaviour, not for a deadline: 1 s (vitest's default) fails under load.
    expect: { poll: { timeout: SETTLE_TIMEOUT_MS } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          setupFiles: ['testing/setup/fast-check-seed.ts'],
          include: [
            'packages/*/src/**/*.test.ts',
            'examples/*/src/**/*.test.ts',
            'bench/src/**/*.test.ts',
            'fleet/src/**/*.test.ts',
            'testing/src/**/*.test.ts',
            'consumer/src/**/*.test.ts',
            'docs/guide/**/*.test.ts',
            'docs/site/**/*.test.ts',
          ],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          setupFiles: ['testing/setup/fast-check-seed.ts'],
          include: [
            'packages/*/test/**/*.test.ts',
            'examples/*/test/**/*.test.ts',
            'conformance/test/**/*.test.ts',
            'testing/test/**/*.test.ts',
          ],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        // The docs site (`npm run docs`), built once per run before these tests: its exercises in
        // Chromium, its links, its code samples and its API reference.
        extends: true,
        test: {
          name: 'docs',
          // Same group as e2e, so vitest needs the same worker count for both.
          sequence: { groupOrder: 1 },
          include: ['docs/test/**/*.test.ts'],
          globalSetup: ['docs/test/build-site.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        // Real third-party peers (FastMCP, the mcp Python SDK, the TypeScript SDK v1) as processes:
        // `npm run test:interop` builds interop/.venv first. Not part of `npm test`.
        extends: true,
        test: {
          name: 'interop',
          include: ['interop/test/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
        },
      },
      {
        // The packages as a user gets them: packed, installed from the tarballs into fresh projects
        // outside the repository, type-checked and run, and a project made by the packed
        // create-parley tested. `npm run test:consumer` builds first. Not part of `npm test`.
        extends: true,
        test: {
          name: 'consumer',
          include: ['consumer/test/**/*.test.ts'],
          globalSetup: ['consumer/test/setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'fuzz',
          sequence: { groupOrder: 2 },
          include: ['packages/*/test/**/*.fuzz.ts', 'packages/*/src/**/*.fuzz.ts', 'fleet/src/**/*.fuzz.ts'],
          testTimeout: 60 * 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
