import { checkContent } from './check-content.js';
import { checkRequestedSchema } from './check-schema.js';
import { listFields } from './fields.js';
import { frozenCopy, isRecord } from './json.js';
import { problem } from './problems.js';
import { SchemaError } from './schema-error.js';
import { Secret } from './secret.js';
import type {
  Answer,
  FormContent,
  ParseResult,
  QuestionInput,
  RequestedSchema,
  ZodObjectLike,
} from './types.js';
import { validateWithZod, zodToRequestedSchema } from './zod.js';
import { isZodSchema } from './zod-vendor.js';

/** The wire name of a bare field's single property: `ask.text()` is asked as `{ value: string }`. */
export const WRAPPED_FIELD = 'value';

/** The normalized, checked form of any question input. */
export interface PreparedQuestion<T = unknown> {
  /** What goes on the wire as `requestedSchema` (deeply frozen). */
  readonly schema: RequestedSchema;
  /** True for a bare field: the wire asks for `{ value }` and the answer is unwrapped. */
  readonly wrapped: boolean;
  /**
   * The fields built with `ask.secret()` (`['value']` for a bare `ask.secret()`). A question with any
   * is answered only on a page of the server; their answers are {@link Secret}s.
   */
  readonly secretFields: readonly string[];
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
  // A secret and a text field share a schema: the secret marks keep them apart.
  const secrets = candidate.secret === true ? '!' : JSON.stringify(candidate.secretFields ?? []);
  return `${candidate.kind}:${candidate.optional === true ? '?' : ''}${secrets}${JSON.stringify(candidate.schema)}`;
}

interface SchemaOf {
  schema: RequestedSchema;
  wrapped: boolean;
  secretFields: readonly string[];
  zod?: ZodObjectLike;
}

const NO_SECRETS: readonly string[] = Object.freeze([]);

function schemaOf(question: object): SchemaOf {
  if (isZodSchema(question))
    return {
      schema: zodToRequestedSchema(question),
      wrapped: false,
      secretFields: NO_SECRETS,
      zod: question,
    };
  const candidate = question as Record<string, unknown>;
  if (candidate.kind === 'field' && isRecord(candidate.schema)) {
    const schema = {
      type: 'object',
      properties: { [WRAPPED_FIELD]: candidate.schema },
      ...(candidate.optional === true ? {} : { required: [WRAPPED_FIELD] }),
    } as unknown as RequestedSchema;
    return { schema, wrapped: true, secretFields: candidate.secret === true ? [WRAPPED_FIELD] : NO_SECRETS };
  }
  if (candidate.kind === 'form' && isRecord(candidate.schema)) {
    const secrets = Array.isArray(candidate.secretFields) ? (candidate.secretFields as string[]) : NO_SECRETS;
    return { schema: candidate.schema as unknown as RequestedSchema, wrapped: false, secretFields: secrets };
  }
  return { schema: question as RequestedSchema, wrapped: false, secretFields: NO_SECRETS };
}

/** The checked content with each secret field's text held in a {@link Secret}. */
function withSecrets(content: FormContent, secretFields: readonly string[]): Record<string, unknown> {
  const held: Record<string, unknown> = { ...content };
  for (const name of secretFields) {
    const value = held[name];
    if (typeof value === 'string') held[name] = new Secret(value);
  }
  return held;
}

function build(question: object): PreparedQuestion<unknown> {
  const { schema, wrapped, secretFields, zod } = schemaOf(question);
  const problems = checkRequestedSchema(schema);
  if (problems.length > 0) throw new SchemaError(problems);
  const frozen = frozenCopy(schema);
  const fields = listFields(frozen);
  const secrets = Object.freeze([...secretFields]);
  const parse = (content: unknown): ParseResult<unknown> => {
    const checked = checkContent(fields, content);
    if (!checked.ok) return checked;
    if (zod) return validateWithZod(zod, checked.value);
    const value = secrets.length > 0 ? withSecrets(checked.value as FormContent, secrets) : checked.value;
    return { ok: true, value: wrapped ? (value as Record<string, unknown>)[WRAPPED_FIELD] : value };
  };
  return Object.freeze({ schema: frozen, wrapped, secretFields: secrets, parse });
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
