import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Packed } from './pack.js';
import { run } from './run.js';

type Dependencies = Record<string, string>;

/**
 * A package.json pointed at the tarballs: each packed package it depends on comes from its tarball,
 * and so does every packed package anything under it depends on (npm `overrides`), so nothing of
 * Parley comes from the registry or from the workspace.
 */
export function pointAtTarballs<T extends { dependencies?: Dependencies; devDependencies?: Dependencies }>(
  manifest: T,
  packs: readonly Packed[],
): T & { overrides: Dependencies } {
  const spec = new Map(packs.map((pack) => [pack.name, `file:${pack.tarball}`]));
  const repoint = (block: Dependencies = {}) =>
    Object.fromEntries(Object.entries(block).map(([name, range]) => [name, spec.get(name) ?? range]));
  return {
    ...manifest,
    dependencies: repoint(manifest.dependencies),
    devDependencies: repoint(manifest.devDependencies),
    overrides: Object.fromEntries(spec),
  };
}

/** Writes `manifest` as the package.json of `dir`. */
export function writeManifest(dir: string, manifest: object): void {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `npm install` in `dir`, as a user would run it (the registry for everything but the tarballs). */
export async function npmInstall(dir: string): Promise<void> {
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, timeoutMs: 600_000 });
}
