import { checkContent } from './check-content.js';
import { checkRequestedSchema } from './check-schema.js';
import { listFields } from './fields.js';
import { frozenCopy, isRecord } from './json.js';
import { problem } from './problems.js';
import { SchemaError } from './schema-error.js';
import type {
  Answer,
  FormContent,
  ParseResult,
  QuestionInput,
  RequestedSchema,
  ZodObjectLike,
} from './types.js';
import { isZodSchema, validateWithZod, zodToRequestedSchema } from './zod.js';

/** The wire name of a bare field's single property: `ask.text()` is asked as `{ value: string }`. */
export const WRAPPED_FIELD = 'value';

/** The normalized, checked form of any question input. */
export interface PreparedQuestion<T = unknown> {
  /** What goes on the wire as `requestedSchema` (deeply frozen). */
  readonly schema: RequestedSchema;
  /** True for a bare field: the wire asks for `{ value }` and the answer is unwrapped. */
  readonly wrapped: boolean;
  /** Checks answer content; same as `parseContent(question, content)`. Never throws. */
  parse(content: unknown): ParseResult<T>;
}

const prepared = new WeakMap<object, PreparedQuestion<unknown>>();
/**
 * Builders called inside a handler make new objects on every call (and on 2026-07-28 every round
 * runs the handler again), so the same question is also remembered by its schema text.
 */
const bySchemaText = new Map<string, PreparedQuestion<unknown>>();
const SCHEMA_TEXT_CACHE_LIMIT = 500;

function schemaTextKey(question: object): string | undefined {
  const candidate = question as Record<string, unknown>;
  if ((candidate.kind !== 'field' && candidate.kind !== 'form') || !isRecord(candidate.schema))
    return undefined;
  return `${candidate.kind}:${candidate.optional === true ? '?' : ''}${JSON.stringify(candidate.schema)}`;
}

function schemaOf(question: object): { schema: RequestedSchema; wrapped: boolean; zod?: ZodObjectLike } {
  if (isZodSchema(question)) return { schema: zodToRequestedSchema(question), wrapped: false, zod: question };
  const candidate = question as Record<string, unknown>;
  if (candidate.kind === 'field' && isRecord(candidate.schema)) {
    const schema = {
      type: 'object',
      properties: { [WRAPPED_FIELD]: candidate.schema },
      ...(candidate.optional === true ? {} : { required: [WRAPPED_FIELD] }),
    } as unknown as RequestedSchema;
    return { schema, wrapped: true };
  }
  if (candidate.kind === 'form' && isRecord(candidate.schema)) {
    return { schema: candidate.schema as unknown as RequestedSchema, wrapped: false };
  }
  return { schema: question as RequestedSchema, wrapped: false };
}

function build(question: object): PreparedQuestion<unknown> {
  const { schema, wrapped, zod } = schemaOf(question);
  const problems = checkRequestedSchema(schema);
  if (problems.length > 0) throw new SchemaError(problems);
  const frozen = frozenCopy(schema);
  const fields = listFields(frozen);
  const parse = (content: unknown): ParseResult<unknown> => {
    const checked = checkContent(fields, content);
    if (!checked.ok) return checked;
    if (zod) return validateWithZod(zod, checked.value);
    return wrapped ? { ok: true, value: (checked.value as FormContent)[WRAPPED_FIELD] } : checked;
  };
  return Object.freeze({ schema: frozen, wrapped, parse });
}

/**
 * Normalizes any question (an `ask.*` field or form, a zod v4 object, or a raw requestedSchema)
 * into its checked wire schema and a typed parser. Throws {@link SchemaError} when the question
 * leaves the subset. Calling it again with the same object returns the same result at once.
 *
 * @example
 * const q = prepareQuestion(ask.integer({ min: 1, max: 3 }));
 * q.schema; // { type: 'object', properties: { value: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['value'] }
 * q.parse({ value: 2 }); // { ok: true, value: 2 }
 */
export function prepareQuestion<Q extends QuestionInput>(question: Q): PreparedQuestion<Answer<Q>> {
  if ((typeof question !== 'object' && typeof question !== 'function') || question === null) {
    throw new SchemaError([
      problem('', 'a question must be built with ask.*(), a zod object, or a requestedSchema object'),
    ]);
  }
  let result = prepared.get(question);
  if (!result) {
    const key = schemaTextKey(question);
    result = key === undefined ? undefined : bySchemaText.get(key);
    if (!result) {
      result = build(question);
      if (key !== undefined) {
        if (bySchemaText.size >= SCHEMA_TEXT_CACHE_LIMIT) bySchemaText.clear();
        bySchemaText.set(key, result);
      }
    }
    prepared.set(question, result);
  }
  return result as PreparedQuestion<Answer<Q>>;
}
