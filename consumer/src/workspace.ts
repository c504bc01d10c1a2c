import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A workspace package that is published: its package.json, and where it is. */
export interface Publishable {
  readonly name: string;
  readonly version: string;
  /** Absolute. */
  readonly dir: string;
  readonly manifest: Manifest;
}

/** The parts of a package.json the consumer test reads. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Readonly<Record<string, unknown>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly publishConfig?: Readonly<Record<string, unknown>>;
}

/**
 * Every workspace package that is not private, as npm itself lists the workspaces: a package added
 * to the root package.json's `workspaces` is covered with nothing else to change.
 */
export function publishablePackages(root: string = ROOT): Publishable[] {
  const listed = JSON.parse(
    execFileSync('npm', ['query', '.workspace'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as (Manifest & { location: string })[];
  return listed
    .filter((workspace) => workspace.private !== true)
    .map((workspace) => ({
      name: workspace.name,
      version: workspace.version,
      dir: join(root, workspace.location),
      manifest: workspace,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The module subpaths of a package's `exports` (`.`, `./form`, ...): stylesheets and other files left out. */
export function moduleSubpaths(manifest: Manifest): string[] {
  return Object.entries(manifest.exports ?? {})
    .filter(([subpath, target]) => !/\.[a-z]+$/.test(subpath) && typeof target === 'object')
    .map(([subpath]) => subpath);
}

/** What a user imports for each module subpath: `@parley/core`, `@parley/core/form`, ... */
export function exportedModules(manifest: Manifest): string[] {
  return moduleSubpaths(manifest).map((subpath) =>
    subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
  );
}
