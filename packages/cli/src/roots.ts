import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ElicitationUI } from '@parley/client';

/** One root a server may work in: a `file://` URI and a short name. */
export interface Root {
  readonly uri: string;
  readonly name: string;
}

/**
 * The roots `parley` declares: the current directory by default, the `--root` directories when
 * given (relative to the current directory), none with `--no-roots`.
 */
export function rootsFor(paths: readonly string[] | 'none' | undefined, cwd: string): Root[] {
  if (paths === 'none') return [];
  return (paths ?? [cwd]).map((path) => {
    const absolute = resolve(cwd, path);
    return { uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute };
  });
}

/**
 * The host with roots: answers `roots/list` with `roots`, which also declares the `roots`
 * capability. Without roots the host is returned as it is, so nothing is declared.
 */
export function withRoots(ui: ElicitationUI, roots: readonly Root[]): ElicitationUI {
  if (roots.length === 0) return ui;
  return Object.assign(Object.create(ui) as ElicitationUI, {
    roots: async () => ({ roots: roots.map((root) => ({ ...root })) }),
  });
}
