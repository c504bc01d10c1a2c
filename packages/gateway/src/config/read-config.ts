import { readFile } from 'node:fs/promises';
import type * as z from 'zod/v4';
import { type GatewayConfig, gatewayConfigSchema } from './schema.js';

/** A configuration that cannot be used: each problem names its field and what to write there. */
export class GatewayConfigError extends Error {
  /** One line per problem: `<field>: <what is wrong, and the fix>`. */
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(`${source} cannot be used:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'GatewayConfigError';
    this.problems = problems;
  }
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Checks a gateway configuration and resolves `${NAME}` references to the environment in its
 * strings (credentials need not be written into the file). Throws {@link GatewayConfigError} listing
 * every problem, each with its field and the fix.
 *
 * @example
 * const config = readGatewayConfig({ upstreams: { returns: { url: 'http://127.0.0.1:3000/mcp' } } });
 */
export function readGatewayConfig(
  value: unknown,
  options: { readonly env?: NodeJS.ProcessEnv; readonly source?: string } = {},
): GatewayConfig {
  const source = options.source ?? 'The gateway configuration';
  const problems: string[] = [];
  const resolved = resolveReferences(value, options.env ?? process.env, [], problems);
  const parsed = gatewayConfigSchema.safeParse(resolved);
  if (!parsed.success) problems.push(...parsed.error.issues.map(describeIssue));
  if (problems.length > 0) throw new GatewayConfigError(source, problems);
  return parsed.data as GatewayConfig;
}

/** Reads and checks `gateway.json` (see {@link readGatewayConfig}). */
export async function loadGatewayConfig(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new GatewayConfigError(path, [
      `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path given to --config`,
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GatewayConfigError(path, [`the file is not JSON: ${(error as Error).message}`]);
  }
  return readGatewayConfig(value, { env, source: path });
}

function resolveReferences(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path: string[],
  problems: string[],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string) => {
      const found = env[name];
      if (found !== undefined) return found;
      problems.push(
        `${fieldName(path)}: refers to the environment variable ${name}, which is not set; set it, or write the value itself`,
      );
      return whole;
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => resolveReferences(item, env, [...path, String(index)], problems));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        resolveReferences(item, env, [...path, key], problems),
      ]),
    );
  return value;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // A bad upstream name: what is wrong with the key is in the issue's own issues.
  const said = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return `${fieldName(issue.path.map(String))}: ${said}`;
}

function fieldName(path: readonly string[]): string {
  return path.length === 0 ? '(top level)' : path.join('.');
}
