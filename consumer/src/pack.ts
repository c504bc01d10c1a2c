import { join } from 'node:path';
import { run } from './run.js';
import { type Publishable, ROOT } from './workspace.js';

/** A package packed as npm publishes it. */
export interface Packed extends Publishable {
  /** The .tgz, absolute. */
  readonly tarball: string;
  /** Every file in it, relative to the package root. */
  readonly files: readonly string[];
}

/** Packs each package with `npm pack` into `destination`. Their `dist/` must be built first. */
export async function packAll(packages: readonly Publishable[], destination: string): Promise<Packed[]> {
  const workspaces = packages.flatMap((pkg) => ['--workspace', pkg.dir]);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination, ...workspaces], {
    cwd: ROOT,
  });
  const reports = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
  return packages.map((pkg) => {
    const report = reports.find((candidate) => candidate.name === pkg.name);
    if (!report) throw new Error(`npm pack made no tarball for ${pkg.name}`);
    return {
      ...pkg,
      tarball: join(destination, report.filename),
      files: report.files.map((file) => file.path),
    };
  });
}
