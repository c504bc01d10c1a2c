import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { HOST_MATRIX_PAGE, hostMatrixMarkdown } from './host-matrix.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('the host matrix page is the host table as it is now (npm run docs writes it)', () => {
  const committed = readFileSync(`${root}/${HOST_MATRIX_PAGE}`, 'utf8');
  expect(
    committed,
    'docs/hosts.md is out of date: run `npm run docs` (or writeHostMatrix) and commit it',
  ).toBe(hostMatrixMarkdown());
});

it('cites every source it names, and gives every fact of every host its sources', () => {
  const page = hostMatrixMarkdown();
  for (const [, key] of page.matchAll(/\]\(#source-([a-z0-9]+)\)/g))
    expect(page).toContain(`<a id="source-${key}"></a>`);
  const factTables = page.split('| fact | value | sources | seen on |\n| --- | --- | --- | --- |\n').slice(1);
  expect(factTables.length).toBeGreaterThan(12);
  for (const table of factTables)
    for (const row of table.split('\n\n')[0]!.split('\n'))
      expect(row, row).toMatch(/\| \[[A-Z0-9]+\]\(#source-/);
});
