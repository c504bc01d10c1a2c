// Every name a package exports is documented: the API reference is made from these comments.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryPoints, missingDocMessage, publicExports } from './public-exports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entries = entryPoints(root);
const exported = publicExports(root, entries);

describe('public exports', () => {
  it('reads every subpath of every package', () => {
    const specifiers = entries.map((entry) => entry.specifier);
    expect(specifiers).toEqual(
      expect.arrayContaining(['@parley/core', '@parley/core/form', '@parley/server/redis']),
    );
    expect(specifiers).not.toContain('@parley/lab/renderer.css');
    for (const entry of entries)
      expect(
        exported.some((item) => item.entry === entry),
        `${entry.specifier} exports something`,
      ).toBe(true);
  });

  it.each(entries.map((entry) => [entry.specifier, entry] as const))(
    '%s: every export has TSDoc',
    (_, entry) => {
      const missing = exported
        .filter((item) => item.entry === entry && item.doc === '')
        .map(missingDocMessage);
      expect(missing).toEqual([]);
    },
  );
});

describe('the TSDoc check', () => {
  it('names an export that has no TSDoc, and where it is declared', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'parley-exports-'));
    try {
      mkdirSync(join(fixture, 'packages/demo/src'), { recursive: true });
      writeFileSync(
        join(fixture, 'packages/demo/package.json'),
        JSON.stringify({ name: '@demo/pkg', exports: { '.': { '@parley/source': './src/index.ts' } } }),
      );
      writeFileSync(
        join(fixture, 'packages/demo/src/index.ts'),
        '/** Says hello. */\nexport const hello = 1;\n\nexport const bare = 2;\n',
      );
      const items = publicExports(fixture, entryPoints(fixture));
      expect(items.map((item) => [item.name, item.doc])).toEqual([
        ['hello', 'Says hello.'],
        ['bare', ''],
      ]);
      expect(missingDocMessage(items[1]!)).toBe(
        '@demo/pkg exports `bare` without TSDoc (declared at packages/demo/src/index.ts:4): write a /** ... */ comment above that declaration',
      );
    } finally {
      rmSync(fixture, { recursive: true, force: true });
    }
  });
});
