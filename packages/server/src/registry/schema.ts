import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { zodRunsAuthorCode } from '@parley/core';

/** A schema for tool input, tool output or prompt arguments: zod v4, or any Standard Schema with JSON Schema output. */
export type ArgsSchema = StandardSchemaWithJSON;

/** The output type of a schema, or an empty record when there is none. */
export type ArgsOf<S> = S extends StandardSchemaWithJSON<unknown, infer O> ? O : Record<string, never>;

const EMPTY_OBJECT_SCHEMA = Object.freeze({ type: 'object', properties: {} });

/** The JSON Schema advertised for a schema (computed once, at registration). */
export function toJsonSchema(
  schema: ArgsSchema | undefined,
  io: 'input' | 'output',
): Record<string, unknown> {
  if (!schema) return EMPTY_OBJECT_SCHEMA;
  const converter = schema['~standard'].jsonSchema[io];
  const json = converter({ target: 'draft-2020-12' }) as Record<string, unknown>;
  if (json.type !== 'object') {
    throw new TypeError(
      `A ${io} schema must describe an object (got ${JSON.stringify(json.type)}); wrap it in z.object({...}).`,
    );
  }
  return Object.freeze(json);
}

/** One problem checking arguments found: the path to the value (empty for the whole), and what is wrong. */
export interface ArgsIssue {
  readonly path: readonly string[];
  readonly message: string;
}

/** What checking arguments against a schema found. */
export type ArgsCheck =
  | { ok: true; value: unknown }
  | { ok: false; message: string; issues: readonly ArgsIssue[] };

/** Validates arguments; the message lists every issue with its path. */
export async function validateArgs(schema: ArgsSchema | undefined, args: unknown): Promise<ArgsCheck> {
  return checkArgs(schema, args);
}

/**
 * {@link validateArgs} without a promise when the schema answers at once (most do; one with
 * asynchronous refinements answers with a promise, and so does this).
 */
export function checkArgs(schema: ArgsSchema | undefined, args: unknown): ArgsCheck | Promise<ArgsCheck> {
  if (!schema) return { ok: true, value: args ?? {} };
  const parseAsync = asyncParserOf(schema);
  if (parseAsync) return parseAsync(args ?? {}).then(checkOfZod);
  const result = schema['~standard'].validate(args ?? {});
  return 'then' in result ? Promise.resolve(result).then(checkOf) : checkOf(result);
}

/** What zod's `safeParseAsync` answers (the fields read here). */
interface ZodParsed {
  readonly success: boolean;
  readonly data?: unknown;
  readonly error?: { readonly issues: readonly StandardSchemaV1.Issue[] };
}

/**
 * zod's own async parse, for a zod schema with its author's code in it (refinements, transforms...):
 * `~standard.validate` would run such a schema twice when it meets a promise, and leave the first
 * run's rejection unhandled, which ends the process (see zod-author-code.ts in @parley/core). zod
 * schemas without the method (zod/mini) are checked the standard way.
 */
function asyncParserOf(schema: ArgsSchema): ((value: unknown) => Promise<ZodParsed>) | undefined {
  if (!zodRunsAuthorCode(schema)) return undefined;
  const parse = (schema as { safeParseAsync?: unknown }).safeParseAsync;
  return typeof parse === 'function' ? (value) => parse.call(schema, value) as Promise<ZodParsed> : undefined;
}

function checkOfZod(parsed: ZodParsed): ArgsCheck {
  return checkOf(parsed.success ? { value: parsed.data } : { issues: parsed.error?.issues ?? [] });
}

function checkOf(result: StandardSchemaV1.Result<unknown>): ArgsCheck {
  if (!result.issues) return { ok: true, value: result.value };
  const issues = result.issues.map((issue) => ({
    path: (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)),
    message: issue.message,
  }));
  return { ok: false, message: describeIssues(issues), issues };
}

/** Issues as one line, each with its path: `boxes: Too big; reason: Invalid option`. */
export function describeIssues(issues: readonly ArgsIssue[]): string {
  return issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
