import type { ScaffoldOptions } from './options.js';
import { TOOL_VERSIONS } from './versions.js';

/** The new project's package.json, as an object. */
export function manifest(
  name: string,
  options: ScaffoldOptions,
  parleyVersion: string,
): Record<string, unknown> {
  const parley = `^${parleyVersion}`;
  const http = options.transport === 'http';
  return {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      dev: http ? 'tsx watch src/main.ts' : 'tsc -p tsconfig.build.json --watch',
      prestart: 'npm run build',
      start: 'node dist/main.js',
      test: 'tsc && vitest run',
      inspect: http ? 'tsx scripts/inspect.ts' : 'npm run build && parley lab "node dist/main.js" --open',
    },
    dependencies: sorted({
      '@parley/server': parley,
      ...(options.oauth ? { jose: TOOL_VERSIONS.jose } : {}),
    }),
    devDependencies: sorted({
      '@parley/cli': parley,
      '@parley/client': parley,
      ...(http ? { '@parley/lab': parley } : {}),
      '@types/node': TOOL_VERSIONS['@types/node'],
      tsx: TOOL_VERSIONS.tsx,
      typescript: TOOL_VERSIONS.typescript,
      vitest: TOOL_VERSIONS.vitest,
    }),
  };
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
