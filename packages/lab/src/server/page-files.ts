import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** One file of the bundled page, read into memory at start. */
export interface PageFile {
  readonly body: Buffer;
  readonly type: string;
}

/** Where `build-page.mjs` puts the bundled page: `dist/page`, next to this module's `dist/server`. */
export function defaultPageDir(): string {
  const built = fileURLToPath(new URL('../page/', import.meta.url));
  // Run from src (tests through the "source" condition), the page is still the built one.
  return existsSync(join(built, 'index.html'))
    ? built
    : fileURLToPath(new URL('../../dist/page/', import.meta.url));
}

/**
 * Reads the page's files (no subfolders) into memory, keyed by URL path. Throws when the page was
 * not built, with the command that builds it.
 */
export function loadPageFiles(dir: string): Map<string, PageFile> {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(
      `The lab page is not built (no index.html in ${dir}); run: node packages/lab/scripts/build-page.mjs`,
    );
  }
  const files = new Map<string, PageFile>();
  for (const name of readdirSync(dir)) {
    const type = CONTENT_TYPES[extname(name)];
    if (type) files.set(`/${name}`, { body: readFileSync(join(dir, name)), type });
  }
  return files;
}
