// The API reference lists every name every package subpath exports, on that subpath's page. (That
// each has TSDoc is checked in docs/site/public-exports.test.ts.)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { entryPoints, publicExports } from '../site/public-exports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const siteDir = inject('siteDir');
const entries = entryPoints(root);
const exported = publicExports(root, entries);

/** The names a reference page has a heading for (`inspectUrl()` reads `inspectUrl`). */
function headings(html: string): Set<string> {
  return new Set(
    [...html.matchAll(/<h3 id="[^"]*"[^>]*>(.*?)\s*<a class="header-anchor"/g)].map((match) =>
      match[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/\(\)$/, '')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>'),
    ),
  );
}

describe('the API reference', () => {
  it('links a page for every subpath of every package', () => {
    const index = readFileSync(join(siteDir, 'api/index.html'), 'utf8');
    for (const entry of entries)
      expect(index, entry.specifier).toContain(`href="/api/${entry.specifier}.html"`);
  });

  it.each(entries.map((entry) => [entry.specifier, entry] as const))(
    '%s: its page lists every export',
    (specifier) => {
      const listed = headings(readFileSync(join(siteDir, `api/${specifier}.html`), 'utf8'));
      const missing = exported
        .filter((item) => item.entry.specifier === specifier && !listed.has(item.name))
        .map((item) => item.name);
      expect(missing, `exported by ${specifier} but missing from its reference page`).toEqual([]);
    },
  );
});
