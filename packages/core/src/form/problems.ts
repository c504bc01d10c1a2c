import type { SchemaProblem } from './types.js';

/** Appends segments to a JSON pointer, escaping `~` and `/` (RFC 6901). */
export function pointer(base: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>(
    (path, segment) => `${path}/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`,
    base,
  );
}

export function problem(path: string, message: string): SchemaProblem {
  return { path, message };
}

/** Formats a problem list for an error message, one per line. */
export function describeProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((item) => `- ${item.path === '' ? '(root)' : item.path}: ${item.message}`).join('\n');
}
