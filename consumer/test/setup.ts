import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAll } from '../src/pack.js';
import { publishablePackages } from '../src/workspace.js';
import './provided.js';

// Packs every publishable package once for all the consumer tests, into a folder outside the
// repository, removed when they end.
export default async function setup(project: TestProject): Promise<() => void> {
  const packages = publishablePackages();
  const unbuilt = packages.filter((pkg) => !existsSync(join(pkg.dir, 'dist')));
  if (unbuilt.length > 0) {
    throw new Error(
      `${unbuilt.map((pkg) => pkg.name).join(', ')}: no dist/. Run npm run build first (npm run test:consumer does).`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'parley-packs-'));
  project.provide('packs', await packAll(packages, folder));
  return () => rmSync(folder, { recursive: true, force: true });
}
