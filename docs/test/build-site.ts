// Builds the site once per test run (`npm run docs`: the API reference, then VitePress) for the tests
// in docs/test, which read docs/.vitepress/dist.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built site's folder. */
    siteDir: string;
  }
}

/** Builds the site; DOCS_BUILD=reuse uses the last build instead (while editing these tests). */
export default async function buildSite(project: TestProject): Promise<void> {
  project.provide('siteDir', `${root}docs/.vitepress/dist`);
  if (process.env.DOCS_BUILD === 'reuse' && existsSync(`${root}docs/.vitepress/dist/index.html`)) return;
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitepress/bin/vitepress.js', 'build', 'docs'], {
      cwd: root,
      env: { ...process.env, DOCS_API: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`npm run docs failed (exit ${code}):\n${output.join('').slice(-8000)}`);
}
