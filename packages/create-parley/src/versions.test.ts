import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { TOOL_VERSIONS } from './versions.js';

const manifest = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

it('gives new projects the ranges this repository builds and tests with', () => {
  const root = manifest('../../../package.json').devDependencies!;
  const client = manifest('../../client/package.json').dependencies!;
  expect(TOOL_VERSIONS.typescript).toBe(root.typescript);
  expect(TOOL_VERSIONS.vitest).toBe(root.vitest);
  expect(TOOL_VERSIONS['@types/node']).toBe(root['@types/node']);
  expect(TOOL_VERSIONS.jose).toBe(client.jose);
});
