import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TYPES = {
  'question-page.js': 'text/javascript; charset=utf-8',
  'question-page.css': 'text/css; charset=utf-8',
} as const;

/** The two files a question page loads: its script and its one stylesheet. */
export type QuestionPageAssetName = keyof typeof TYPES;

/** A built file of the question page, ready to send. */
export interface QuestionPageAsset {
  /** The file's bytes (shared between callers: send it, do not change it). */
  readonly body: Uint8Array;
  /** Its `Content-Type`, with the charset. */
  readonly type: string;
}

// From src/question-page/ (run from source) and dist/question-page/ alike, the package root is
// two folders up, and `build-page.mjs` writes the page to its dist/page/.
const PAGE_DIR = new URL('../../dist/page/', import.meta.url);
const cache = new Map<QuestionPageAssetName, QuestionPageAsset>();

/**
 * Reads one built file of the question page (from this package's `dist/page/`), once: later calls
 * get it from memory. Throws a `TypeError` for any other name (the name may come from a URL), and
 * an `Error` naming the build command when the page was not built.
 *
 * @example
 * import { questionPageAsset } from '@parley/renderer/question-page';
 *
 * const { body, type } = questionPageAsset('question-page.js');
 * response.writeHead(200, { 'content-type': type, 'x-content-type-options': 'nosniff' }).end(body);
 */
export function questionPageAsset(name: QuestionPageAssetName): QuestionPageAsset {
  const cached = cache.get(name);
  if (cached) return cached;
  if (typeof name !== 'string' || !Object.hasOwn(TYPES, name)) {
    throw new TypeError(
      `No question page asset is named ${JSON.stringify(String(name).slice(0, 60))}; ` +
        'there are question-page.js and question-page.css.',
    );
  }
  const file = new URL(name, PAGE_DIR);
  let body: Uint8Array;
  try {
    body = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `The question page is not built (no ${fileURLToPath(file)}); run: npm run build ` +
        '(or node packages/renderer/scripts/build-page.mjs after tsc -b).',
    );
  }
  const asset = { body, type: TYPES[name] };
  cache.set(name, asset);
  return asset;
}
