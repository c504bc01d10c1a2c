import { builtinModules } from 'node:module';

const BUILTINS = new Set(builtinModules);

/**
 * The packages a compiled ES module imports: every bare specifier of its static imports, re-exports
 * and dynamic `import('...')` with a literal, as package names (`@scope/name`, `name`). Node's own
 * modules are left out.
 */
export function importedPackages(js: string): string[] {
  const found = new Set<string>();
  const specifiers = [
    ...js.matchAll(/^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm),
    ...js.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...js.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (!BUILTINS.has(name)) found.add(name);
  }
  return [...found].sort();
}
