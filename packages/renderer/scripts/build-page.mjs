#!/usr/bin/env node
// Builds the question page a Parley server serves into packages/renderer/dist/page/:
// question-page.js (src/browser/question-page.ts with the renderer and @parley/core/form inlined;
// no remote assets) and question-page.css (renderer.css, then the page's own rules: the page links
// this one stylesheet). `questionPageAsset()` reads them from there.
//
//   node packages/renderer/scripts/build-page.mjs
//
// Workspace packages are read from their TypeScript sources (the "@parley/source" condition), so
// this runs with or without `tsc -b` first.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'page');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'src', 'browser', 'question-page.ts')],
  outfile: join(out, 'question-page.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['@parley/source'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const css = ['renderer.css', 'question-page.css']
  .map((file) => readFileSync(join(root, 'assets', file), 'utf8').trimEnd())
  .join('\n\n');
writeFileSync(join(out, 'question-page.css'), `${css}\n`);
console.log(`question page built in ${out}`);
