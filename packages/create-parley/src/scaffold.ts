import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifest } from './manifest.js';
import type { ScaffoldOptions } from './options.js';
import { readme } from './readme.js';

const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url));

/** The placeholder template files use for the project's name. */
export const NAME_PLACEHOLDER = '%NAME%';

/** Template files npm would not pack under their real name. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** A folder name npm accepts as a package name (lower case, no spaces, at most 214 characters). */
const PACKAGE_NAME = /^[a-z0-9~-][a-z0-9._~-]*$/;

/** The template folders a project is made of, in order: a later one's file replaces an earlier one's. */
export function layers(options: ScaffoldOptions): string[] {
  if (options.transport === 'stdio') return ['common', 'stdio'];
  return options.oauth ? ['common', 'http', 'oauth'] : ['common', 'http'];
}

/** What was made: where, and under which package name. */
export interface Scaffolded {
  readonly root: string;
  readonly name: string;
  /** Every file written, relative to `root`, sorted. */
  readonly files: readonly string[];
}

/**
 * Writes a new project into `options.directory` (resolved against `cwd`), which must not exist or
 * be empty. Throws an `Error` that says what to do instead.
 */
export function scaffold(options: ScaffoldOptions, cwd: string, parleyVersion: string): Scaffolded {
  const root = resolve(cwd, options.directory);
  const name = basename(root);
  if (!PACKAGE_NAME.test(name) || name.length > 214) {
    throw new Error(
      `"${name}" cannot be a package name: use lower-case letters, digits, "-", "." or "_" (e.g. my-server).`,
    );
  }
  if (existsSync(root) && readdirSync(root).length > 0) {
    throw new Error(`${root} already exists and is not empty: pick a new folder name, or empty it first.`);
  }

  const files = new Map<string, string>();
  for (const layer of layers(options)) {
    const folder = join(TEMPLATES, layer);
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const source = join(entry.parentPath, entry.name);
      const target = join(relative(folder, entry.parentPath), RENAMED[entry.name] ?? entry.name);
      files.set(target, readFileSync(source, 'utf8').replaceAll(NAME_PLACEHOLDER, name));
    }
  }
  files.set('package.json', `${JSON.stringify(manifest(name, options, parleyVersion), null, 2)}\n`);
  files.set('README.md', readme(name, options));

  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, name, files: [...files.keys()].sort() };
}
