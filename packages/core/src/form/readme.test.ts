// The TypeScript examples of the README's "form" section run as written.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const start = readme.indexOf('\n## form\n');
const end = readme.indexOf('\n## ', start + 1);
const section = readme.slice(start, end === -1 ? undefined : end);
const examples = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

// The examples import the package by name; here that name points at this source tree.
const imports: Record<string, string> = {
  '@parley/core/form': fileURLToPath(new URL('./index.ts', import.meta.url)),
  zod: createRequire(import.meta.url).resolve('zod'),
};
const directory = mkdtempSync(join(tmpdir(), 'parley-form-readme-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('README form section', () => {
  it('has examples', () => {
    expect(start).toBeGreaterThan(-1);
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((code, index) => [index + 1, code] as const))(
    'example %i runs',
    async (index, code) => {
      let source = code;
      for (const [name, path] of Object.entries(imports))
        source = source.replaceAll(`'${name}'`, JSON.stringify(path));
      const file = join(directory, `example-${index}.ts`);
      writeFileSync(file, source);
      await expect(import(/* @vite-ignore */ pathToFileURL(file).href)).resolves.toBeDefined();
    },
  );
});
