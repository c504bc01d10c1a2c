import type { Tool } from '@parley/client';
import { UsageError } from './exit-codes.js';

/**
 * Builds call arguments from `--json '{...}'` and `--arg k=v` (which win). With the tool's input
 * schema, each `--arg` value becomes the type the tool declares: numbers, booleans, and JSON for
 * arrays and objects; strings stay strings.
 */
export function buildArguments(
  json: string | undefined,
  pairs: readonly string[],
  inputSchema: Tool['inputSchema'] | undefined,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`--json is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('--json must be a JSON object, like --json \'{"city": "Lisbon"}\'');
    }
    Object.assign(args, parsed);
  }
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--arg must look like name=value; got "${pair}"`);
    const name = pair.slice(0, equals);
    args[name] = coerce(name, pair.slice(equals + 1), declaredType(inputSchema, name));
  }
  return args;
}

function declaredType(schema: Tool['inputSchema'] | undefined, name: string): string | undefined {
  const property = (schema?.properties as Record<string, { type?: unknown }> | undefined)?.[name];
  return typeof property?.type === 'string' ? property.type : undefined;
}

function coerce(name: string, text: string, type: string | undefined): unknown {
  switch (type) {
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) {
        throw new UsageError(
          `--arg ${name} must be ${type === 'integer' ? 'a whole number' : 'a number'}; got "${text}"`,
        );
      }
      return value;
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return text === 'true';
      throw new UsageError(`--arg ${name} must be true or false; got "${text}"`);
    case 'array':
    case 'object':
      try {
        return JSON.parse(text);
      } catch {
        throw new UsageError(`--arg ${name} must be JSON (an ${type}); got "${text}"`);
      }
    default:
      return text;
  }
}
