// What each package offers its users: every subpath of every package's `exports`, and every name each
// subpath exports, read with the TypeScript compiler from the package sources. The API reference is
// generated from these entry points, and the docs tests check that every name has TSDoc and a place
// in the reference.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One subpath of one package's `exports`: what a user imports, and the source file behind it. */
export interface EntryPoint {
  /** What a user writes in `import ... from`, e.g. `@parley/core/form`. */
  specifier: string;
  packageName: string;
  /** The package's folder, relative to the repository root, e.g. `packages/core`. */
  packageDir: string;
  /** The subpath as `exports` spells it, e.g. `./form`. */
  subpath: string;
  /** The TypeScript source behind it (its `@parley/source` condition), absolute. */
  source: string;
}

/** One name a subpath exports. */
export interface PublicExport {
  entry: EntryPoint;
  name: string;
  /** Its TSDoc summary, '' when it has none. */
  doc: string;
  /** Where it is declared, `path:line` relative to the repository root. */
  declaredAt: string;
}

interface PackageJson {
  name: string;
  exports?: Record<string, unknown>;
}

/** Every JavaScript subpath of every package under `packages/`, in package then `exports` order. */
export function entryPoints(root: string): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    const manifest = join(root, 'packages', folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as PackageJson;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source =
        typeof target === 'object' && target !== null ? Reflect.get(target, '@parley/source') : undefined;
      if (typeof source !== 'string') continue; // e.g. a stylesheet
      entries.push({
        specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
        packageName: pkg.name,
        packageDir: `packages/${folder}`,
        subpath,
        source: resolve(root, 'packages', folder, source),
      });
    }
  }
  return entries;
}

/** Compiler options that read every package from source, as the packages themselves are built. */
export const SOURCE_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['@parley/source'],
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Every name every entry point exports, with its TSDoc. */
export function publicExports(root: string, entries: readonly EntryPoint[]): PublicExport[] {
  const program = ts.createProgram(
    entries.map((entry) => entry.source),
    SOURCE_COMPILER_OPTIONS,
  );
  const checker = program.getTypeChecker();
  const found: PublicExport[] = [];
  for (const entry of entries) {
    const file = program.getSourceFile(entry.source);
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`${entry.specifier}: cannot read ${relative(root, entry.source)}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const doc =
        ts.displayPartsToString(target.getDocumentationComment(checker)).trim() ||
        ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const declaration = target.declarations?.[0] ?? symbol.declarations?.[0];
      found.push({ entry, name: symbol.name, doc, declaredAt: declaration ? where(root, declaration) : '?' });
    }
  }
  return found;
}

function where(root: string, node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(root, file.fileName)}:${line + 1}`;
}

/** What to tell the author of an export that has no TSDoc. */
export function missingDocMessage(item: PublicExport): string {
  const fix = item.declaredAt.includes('node_modules/')
    ? `it is re-exported from a dependency: export a documented alias instead (/** ... */ export type ${item.name} = ...)`
    : 'write a /** ... */ comment above that declaration';
  return `${item.entry.specifier} exports \`${item.name}\` without TSDoc (declared at ${item.declaredAt}): ${fix}`;
}
