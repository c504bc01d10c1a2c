// The sandbox's runtime (worker.ts with @parley/core and sucrase) bundled into one script, given to
// the page as the text of a virtual module: the sandbox frame starts its worker from that text,
// since a frame of no origin can load nothing from the site. The same in `vitepress dev` and build.

import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/** The module whose default export is the runtime's source text. */
export const RUNTIME_MODULE = 'virtual:parley-sandbox-runtime';
const RESOLVED = `\0${RUNTIME_MODULE}`;

/** A Vite plugin serving {@link RUNTIME_MODULE}. */
export function sandboxRuntime(): Plugin {
  return {
    name: 'parley-sandbox-runtime',
    resolveId: (id) => (id === RUNTIME_MODULE ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));
      const bundled = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'es2022',
        minify: true,
        write: false,
        conditions: ['@parley/source'],
        logLevel: 'silent',
      });
      for (const file of bundled.outputFiles) this.addWatchFile(file.path);
      return `export default ${JSON.stringify(bundled.outputFiles[0]!.text)};`;
    },
  };
}
