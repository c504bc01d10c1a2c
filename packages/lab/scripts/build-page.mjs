#!/usr/bin/env node
// Bundles the lab page into packages/lab/dist/page/: app.js (the page's script with
// @parley/core and @parley/renderer inlined; no remote assets), index.html, lab.css and the
// renderer's stylesheet (renderer.css, copied from @parley/renderer).
//
//   node packages/lab/scripts/build-page.mjs
//
// Workspace packages are read from their TypeScript sources (the "source" export condition), so
// this runs with or without `tsc -b` first.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'page');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'src', 'browser', 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['source'],
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});

for (const file of ['index.html', 'lab.css']) {
  copyFileSync(join(root, 'assets', file), join(out, file));
}
copyFileSync(
  createRequire(import.meta.url).resolve('@parley/renderer/renderer.css'),
  join(out, 'renderer.css'),
);
console.log(`lab page built in ${out}`);
