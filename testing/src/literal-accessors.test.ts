import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No object literal in the packages' code has a getter or a setter. V8 (node 20) allocates the
 * accessor pair of such a literal in the old generation, so every young collection keeps the
 * accessor's closure, and all it captured, alive until the next full collection: built per request,
 * it promoted about 2 KB of every request (node's request objects, through `nodeExchange`'s
 * `get url()`) and cost each scavenge about a millisecond. A class with the accessor on its
 * prototype costs nothing per object; so does a plain data property.
 */
const ROOT = fileURLToPath(new URL('../../packages/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `file:line` of every getter or setter written inside an object literal in `text`. */
function literalAccessors(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) {
        if (ts.isGetAccessorDeclaration(property) || ts.isSetAccessorDeclaration(property)) {
          const { line } = source.getLineAndCharacterOfPosition(property.getStart(source));
          found.push(`${file}:${line + 1}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('object literals with accessors', () => {
  it('finds a getter or setter in a literal, and not one in a class', () => {
    const text = [
      'class A { get x() { return 1; } }',
      'const b = { get y() { return 2; }, z: 3 };',
      'const c = { set w(v: number) {} };',
    ].join('\n');
    expect(literalAccessors('t.ts', text)).toEqual(['t.ts:2', 't.ts:3']);
  });

  it('appear nowhere in the packages’ code (use a class, or a data property)', () => {
    const files = sourceFiles(ROOT).filter((file) => /[\\/]src[\\/]/.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => literalAccessors(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
