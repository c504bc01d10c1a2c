// The API reference: TypeDoc (with typedoc-plugin-markdown) reads every subpath of every package's
// `exports` from source and writes one markdown page per subpath to docs/api, named as users import
// it (`docs/api/@parley/core/form.md`); VitePress serves it under /api/.

import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Application, type TypeDocOptions } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import { type EntryPoint, entryPoints } from './public-exports.js';
import { API_FOLDER } from './site-map.js';

/** The site URL of an entry point's reference page. */
export const apiPage = (entry: EntryPoint) => `/api/${entry.specifier}`;

/**
 * Subpaths before their package's root, so a name that both export is documented on the subpath's
 * page (`@parley/core/form`) and the root page refers to it.
 */
function documentingOrder(entries: readonly EntryPoint[]): EntryPoint[] {
  const depth = (entry: EntryPoint) => (entry.subpath === '.' ? 1 : 0);
  return [...entries].sort((a, b) => a.packageName.localeCompare(b.packageName) || depth(a) - depth(b));
}

/**
 * Whether the repository has an `origin` remote, where TypeDoc links each declaration's source
 * (a git host it knows). A clone without one (a fork's fresh `git init`, an unpacked archive) gets
 * no source links rather than TypeDoc's warning, twice, that they would be broken.
 */
function hasOrigin(root: string): boolean {
  try {
    execFileSync('git', ['-C', root, 'remote', 'get-url', 'origin'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes the API reference of every package to docs/api (replacing what was there). */
export async function writeApiReference(root: string): Promise<void> {
  const entries = documentingOrder(entryPoints(root));
  const out = join(root, API_FOLDER);
  rmSync(out, { recursive: true, force: true });
  const options: Partial<TypeDocOptions & PluginOptions> = {
    name: 'API reference',
    entryPoints: entries.map((entry) => entry.source),
    entryPointStrategy: 'resolve',
    tsconfig: join(root, 'docs/tsconfig.api.json'),
    plugin: ['typedoc-plugin-markdown'],
    out,
    readme: 'none',
    outputFileStrategy: 'modules',
    entryFileName: 'index.md',
    hidePageHeader: true,
    hideBreadcrumbs: true,
    sanitizeComments: true,
    useCodeBlocks: true,
    // TypeDoc's links name anchors it numbers itself; explicit anchors make each one land.
    useHTMLAnchors: true,
    excludeInternal: true,
    skipErrorChecking: true,
    logLevel: 'Warn',
    // TypeDoc reads "HEAD" as "no revision to link to": "Defined in" stays, as text, with no link.
    ...(!hasOrigin(root) && { gitRevision: 'HEAD' }),
  };
  const app = await Application.bootstrapWithPlugins(options);
  const project = await app.convert();
  if (!project) throw new Error('TypeDoc could not read the packages: see the errors above');
  for (const module of project.children ?? []) {
    const file = module.sources?.[0]?.fullFileName;
    const entry = entries.find((candidate) => file && resolve(file) === candidate.source);
    if (!entry) throw new Error(`TypeDoc made a module "${module.name}" that no package exports`);
    module.name = entry.specifier;
  }
  await app.generateOutputs(project);
}
