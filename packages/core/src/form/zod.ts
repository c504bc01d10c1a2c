// zod v4 objects as questions: converted with zod's own Standard JSON Schema output, normalized to
// the form subset, and validated again with zod after parsing so refinements still hold. Core
// never imports zod; everything here reads the schema object structurally.

import { checkRequestedSchema } from './check-schema.js';
import { isRecord, own, plainCopy } from './json.js';
import { pointer, problem } from './problems.js';
import { SchemaError } from './schema-error.js';
import type { FieldError, ParseResult, RequestedSchema, SchemaProblem, ZodObjectLike } from './types.js';
import { zodRunsAuthorCode } from './zod-author-code.js';
import { normalizeZodProperty } from './zod-normalize.js';

const REFUSED = 'This zod schema cannot be sent as an MCP form';

function refuse(message: string): never {
  throw new SchemaError([problem('', message)], REFUSED);
}

function convert(schema: ZodObjectLike): Record<string, unknown> {
  const def = isRecord(schema._zod) ? schema._zod.def : undefined;
  if (!isRecord(def)) refuse('zod 3 schemas are not supported; upgrade to zod 4.2 or later');
  if (def.type !== 'object') {
    refuse(
      `a zod question must be z.object({ ... }), not a zod ${String(def.type)}; ` +
        'to ask a single value use ask.text(), ask.number() and friends',
    );
  }
  const jsonSchema = (schema['~standard'] as { jsonSchema?: unknown }).jsonSchema;
  const input = isRecord(jsonSchema) ? jsonSchema.input : undefined;
  if (typeof input !== 'function') {
    refuse(
      'this zod version cannot describe itself as JSON Schema (~standard.jsonSchema); upgrade to zod 4.2 or later',
    );
  }
  let converted: unknown;
  try {
    converted = input.call(jsonSchema, { target: 'draft-2020-12' });
  } catch (error) {
    refuse(
      `zod cannot describe this schema as JSON Schema (${error instanceof Error ? error.message : String(error)}); ` +
        'use only strings, numbers, booleans, enums and arrays of enums',
    );
  }
  if (!isRecord(converted)) refuse('zod produced no JSON Schema object for this schema');
  return plainCopy(converted);
}

/**
 * Converts a zod v4 object into a checked requestedSchema, or throws {@link SchemaError} naming the
 * zod construct that cannot be sent.
 */
export function zodToRequestedSchema(schema: ZodObjectLike): RequestedSchema {
  const converted = convert(schema);
  // z.strictObject says "no other keys": a form never has other keys, so it adds nothing.
  if (converted.additionalProperties === false) delete converted.additionalProperties;
  // A root description is help text; the elicitation message carries that on the wire.
  delete converted.description;
  delete converted.title;
  const shape = (schema._zod.def as { shape?: unknown }).shape;
  const zodProblems: SchemaProblem[] = [];
  const blocked = new Set<string>();
  const properties = own(converted, 'properties');
  if (isRecord(properties)) {
    for (const [name, node] of Object.entries(properties)) {
      if (!isRecord(node)) continue;
      const zodField = isRecord(shape) ? own(shape, name) : undefined;
      const normalized = normalizeZodProperty(node, zodField, pointer('/properties', name));
      zodProblems.push(...normalized.problems);
      if (normalized.blocked) blocked.add(pointer('/properties', name));
    }
  }
  // A blocked field is explained once, by its zod problem, not again by the generic check.
  const explained = (path: string) =>
    [...blocked].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  const problems = [
    ...zodProblems,
    ...checkRequestedSchema(converted).filter((item) => !explained(item.path)),
  ];
  if (problems.length > 0) throw new SchemaError(problems, REFUSED);
  return converted as unknown as RequestedSchema;
}

function issueField(issue: unknown): string {
  const path = isRecord(issue) ? issue.path : undefined;
  const first: unknown = Array.isArray(path) ? path[0] : undefined;
  const key = isRecord(first) ? first.key : first;
  return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
}

const asyncRefused = (): ParseResult<unknown> => ({
  ok: false,
  errors: [
    {
      field: '',
      message:
        'This zod schema has async refinements or transforms, which cannot run while parsing; ' +
        'make them synchronous or check after the answer',
    },
  ],
});

const couldNotCheck = (error: unknown): ParseResult<unknown> => ({
  ok: false,
  errors: [{ field: '', message: `The answer could not be checked: ${String(error)}` }],
});

/** Runs the zod schema's own validation on an answer that already fits the wire schema. */
export function validateWithZod(schema: ZodObjectLike, value: unknown): ParseResult<unknown> {
  if (zodRunsAuthorCode(schema)) {
    const probed = runInAsyncMode(schema, value);
    if (probed !== undefined) return probed;
  }
  let result: unknown;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    return couldNotCheck(error);
  }
  if (isThenable(result)) {
    result.then(ignore, ignore);
    return asyncRefused();
  }
  const issues = isRecord(result) ? result.issues : undefined;
  if (Array.isArray(issues) && issues.length > 0) {
    const errors: FieldError[] = issues.map((issue) => ({
      field: issueField(issue),
      message:
        isRecord(issue) && typeof issue.message === 'string' ? issue.message : 'This value does not fit',
    }));
    return { ok: false, errors };
  }
  return { ok: true, value: isRecord(result) ? result.value : undefined };
}

const ignore = (): void => {};

function isThenable(value: unknown): value is { then(onOk: () => void, onError: () => void): unknown } {
  return isRecord(value) && typeof value.then === 'function';
}

/**
 * A schema with its author's code in it, run once in zod's async mode, where every promise the run
 * meets is kept in the one it answers with (see zod-author-code.ts): an answer that meets a promise
 * is refused, and that promise's rejection is handled. A run that met none is valid, or is run
 * again the standard way for zod's messages (that answer meets no promise there either).
 * `undefined` when the schema has no `_zod.run` (then the standard way is all there is).
 */
function runInAsyncMode(schema: ZodObjectLike, value: unknown): ParseResult<unknown> | undefined {
  const internals = (schema as { _zod?: { run?: unknown } })._zod;
  if (typeof internals?.run !== 'function') return undefined;
  let payload: unknown;
  try {
    payload = (internals.run as (payload: unknown, ctx: unknown) => unknown)(
      { value, issues: [] },
      { async: true },
    );
  } catch (error) {
    return couldNotCheck(error);
  }
  if (isThenable(payload)) {
    payload.then(ignore, ignore);
    return asyncRefused();
  }
  if (isRecord(payload) && Array.isArray(payload.issues) && payload.issues.length === 0) {
    return { ok: true, value: payload.value };
  }
  return undefined;
}
