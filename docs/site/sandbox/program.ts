// How an exercise's code runs: TypeScript types stripped and imports turned into lookups (sucrase),
// the value of the last line reported. It runs in the sandbox worker on the site, and in Node in the
// unit tests; it never touches a page.

import { transform } from 'sucrase';

/** What running the code gave: the last line's value (canonical JSON) or what went wrong. */
export type Outcome =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly error: string };

/** The modules the code may import, by specifier. */
export type Modules = Readonly<Record<string, unknown>>;

const AsyncFunction = (async () => {}).constructor as new (
  ...parameters: string[]
) => (...args: unknown[]) => Promise<void>;

/** The code with its last line (a value) handed to `__lastLine`, or undefined when it has no last line. */
export function reportLastLine(code: string): string | undefined {
  const lines = code.replace(/\s+$/, '').split('\n');
  const last = lines.findLastIndex((line) => line.trim() !== '' && !line.trim().startsWith('//'));
  if (last < 0) return undefined;
  lines[last] = `__lastLine(await (${lines[last]!.trim().replace(/;$/, '')}));`;
  return lines.join('\n');
}

/** Runs TypeScript `code` with `modules` to import from, and gives the value of its last line. */
export async function runProgram(code: string, modules: Modules): Promise<Outcome> {
  const program = reportLastLine(code);
  if (program === undefined) {
    return { ok: false, error: 'Write a value on the last line: the Check compares it with the answer.' };
  }
  let javascript: string;
  try {
    javascript = transform(program, { transforms: ['typescript', 'imports'], production: true }).code;
  } catch (error) {
    return { ok: false, error: `The code does not parse: ${message(error)}. The last line must be a value.` };
  }
  const require = (specifier: string) => {
    if (Object.hasOwn(modules, specifier)) return modules[specifier];
    throw new Error(`Only ${Object.keys(modules).join(', ')} can be imported here, not '${specifier}'`);
  };
  let reported: { value: unknown } | undefined;
  try {
    await new AsyncFunction('require', 'exports', '__lastLine', javascript)(require, {}, (value: unknown) => {
      reported = { value };
    });
  } catch (error) {
    return { ok: false, error: message(error) };
  }
  if (!reported) return { ok: false, error: 'The last line did not run: does the code return before it?' };
  return { ok: true, value: canonical(reported.value) };
}

/** JSON with object keys sorted, so two equal values read the same; `undefined` reads `undefined`. */
export function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(sorted(value)) ?? String(value);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sorted(item)]));
}

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
