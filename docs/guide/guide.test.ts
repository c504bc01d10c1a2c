// Every TypeScript block of the guide runs as written, so the guide cannot drift from the code.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const guide = readFileSync(new URL('./README.md', import.meta.url), 'utf8');

/** Each ```ts block, with the heading of the section it is in. */
const blocks = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => {
  const before = guide.slice(0, match.index);
  const heading = [...before.matchAll(/^## (.+)$/gm)].at(-1)?.[1] ?? 'intro';
  return { heading, code: match[1]! };
});

// The blocks import the packages by name; here those names point at this source tree.
const source = (path: string) => fileURLToPath(new URL(`../../packages/${path}`, import.meta.url));
const imports: Record<string, string> = {
  '@parley/core': source('core/src/index.ts'),
  '@parley/core/form': source('core/src/form/index.ts'),
  '@parley/server': source('server/src/index.ts'),
  '@parley/client': source('client/src/index.ts'),
  '@parley/client/testing': source('client/src/testing/index.ts'),
  '@parley/gateway': source('gateway/src/index.ts'),
  'zod/v4': createRequire(import.meta.url).resolve('zod/v4'),
};

const directory = mkdtempSync(join(tmpdir(), 'parley-guide-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('docs/guide', () => {
  it('has a block for each step', () => {
    const steps = new Set(blocks.map((block) => block.heading));
    expect(steps.size).toBe(8);
  });

  it.each(blocks.map((block, index) => [index + 1, block.heading, block.code] as const))(
    'block %i (%s) runs',
    async (index, _heading, code) => {
      let program = code;
      for (const [name, path] of Object.entries(imports))
        program = program.replaceAll(`'${name}'`, JSON.stringify(path));
      const unknown = [...program.matchAll(/from '(@parley\/[^']+|zod[^']*)'/g)].map((match) => match[1]);
      expect(unknown, 'every package a block imports is mapped above').toEqual([]);
      const file = join(directory, `block-${index}.ts`);
      writeFileSync(file, program);
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    },
  );
});
