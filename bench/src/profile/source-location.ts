import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Turns a profile's (url, 0-based line, column) into a readable `path:line`, mapped back through
 * the file's source map when it has one (so Parley's dist code shows its `src/*.ts` line).
 */
export class SourceLocator {
  readonly #root: string;
  readonly #maps = new Map<string, SourceMap | undefined>();

  /** @param root paths are shown relative to this directory (the repository root). */
  constructor(root: string) {
    this.#root = root;
  }

  locate(url: string, line: number, column: number): string {
    if (!url) return '(native)';
    if (!url.startsWith('file://')) return `${url}:${line + 1}`;
    const file = fileURLToPath(url);
    const entry = this.#mapOf(file)?.findEntry(line, column);
    if (entry && 'originalSource' in entry && entry.originalSource) {
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : resolve(dirname(file), entry.originalSource);
      return `${this.#show(source)}:${entry.originalLine + 1}`;
    }
    return `${this.#show(file)}:${line + 1}`;
  }

  #show(path: string): string {
    const shown = relative(this.#root, path);
    return shown.startsWith('..') ? path : shown;
  }

  #mapOf(file: string): SourceMap | undefined {
    if (this.#maps.has(file)) return this.#maps.get(file);
    let map: SourceMap | undefined;
    try {
      const mapFile = `${file}.map`;
      if (existsSync(mapFile)) map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
    } catch {
      map = undefined;
    }
    this.#maps.set(file, map);
    return map;
  }
}
