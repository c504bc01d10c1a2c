import { checkFieldSchema } from './check-field-schema.js';
import { checkRequestedSchema } from './check-schema.js';
import { frozenCopy, isRecord } from './json.js';
import { pointer, problem } from './problems.js';
import { SchemaError } from './schema-error.js';
import type { Secret } from './secret.js';
import type { Field, FieldSchema, Form, RequestedSchema, SchemaProblem, StringFormat } from './types.js';

/** Options every question takes. */
export interface FieldOptions<T> {
  /** The label shown to the person. */
  title?: string;
  /** Help text shown with the field. */
  description?: string;
  /** Pre-filled answer. A field with a default but without `optional` stays required. */
  default?: T;
  /** The person may leave it empty: the field is not in `required`, and the answer may be undefined. */
  optional?: boolean;
}

/** Options of text questions; lengths count characters (code points). */
export interface TextOptions extends FieldOptions<string> {
  minLength?: number;
  maxLength?: number;
}

/** Options of a secret question: no default (a secret is never pre-filled); lengths count characters. */
export interface SecretOptions extends Omit<FieldOptions<never>, 'default'> {
  minLength?: number;
  /** Default 4096. */
  maxLength?: number;
}

/** Options of number questions; bounds are inclusive. */
export interface NumberOptions extends FieldOptions<number> {
  min?: number;
  max?: number;
}

/** Options of a multi-select; `min`/`max` bound how many options are picked. */
export interface ManyOptions<V extends string> extends FieldOptions<readonly V[]> {
  min?: number;
  max?: number;
}

/** Whether options make a field optional, as a type. */
export type IsOptional<O> = O extends { optional: true }
  ? true
  : O extends { optional: false }
    ? false
    : 'optional' extends keyof O
      ? boolean
      : false;

type FieldAnswerOf<X> = X extends Field<infer T, boolean> ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The answer object of `ask.form(fields)`: optional fields become optional keys. */
export type FormAnswer<F> = Simplify<
  {
    -readonly [K in keyof F & string as F[K] extends Field<unknown, false> ? K : never]: FieldAnswerOf<F[K]>;
  } & {
    -readonly [K in keyof F & string as F[K] extends Field<unknown, false> ? never : K]?: FieldAnswerOf<F[K]>;
  }
>;

/** The options type when none are given. */
type NoOptions = Record<never, never>;

const COMMON_OPTIONS = ['title', 'description', 'default', 'optional'];

function refuseUnknownOptions(builder: string, opts: object, allowed: readonly string[]): void {
  const unknown = Object.keys(opts).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  throw new SchemaError(
    unknown.map((key) =>
      problem('', `unknown option "${key}" for ${builder}(); use only ${allowed.join(', ')}`),
    ),
    `${builder}() cannot build this question`,
  );
}

/** Copies the defined entries only, so unset options leave no `undefined` keys on the wire. */
function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

function makeField<T, O>(
  builder: string,
  schema: Record<string, unknown>,
  opts: FieldOptions<unknown> | undefined,
): Field<T, IsOptional<O>> {
  const problems = checkFieldSchema(schema, '');
  if (problems.length > 0) throw new SchemaError(problems, `${builder}() cannot build this question`);
  return Object.freeze({
    kind: 'field',
    schema: frozenCopy(schema) as unknown as FieldSchema,
    optional: opts?.optional === true,
  }) as Field<T, IsOptional<O>>;
}

function annotations(opts: FieldOptions<unknown> | undefined): Record<string, unknown> {
  return { title: opts?.title, description: opts?.description };
}

function textField(builder: string, format: StringFormat | undefined) {
  return <const O extends TextOptions = NoOptions>(opts?: O): Field<string, IsOptional<O>> => {
    refuseUnknownOptions(builder, opts ?? {}, [...COMMON_OPTIONS, 'minLength', 'maxLength']);
    const schema = defined({
      type: 'string',
      ...annotations(opts),
      format,
      minLength: opts?.minLength,
      maxLength: opts?.maxLength,
      default: opts?.default,
    });
    return makeField<string, O>(builder, schema, opts);
  };
}

function numberField(builder: string, type: 'number' | 'integer') {
  return <const O extends NumberOptions = NoOptions>(opts?: O): Field<number, IsOptional<O>> => {
    refuseUnknownOptions(builder, opts ?? {}, [...COMMON_OPTIONS, 'min', 'max']);
    const schema = defined({
      type,
      ...annotations(opts),
      minimum: opts?.min,
      maximum: opts?.max,
      default: opts?.default,
    });
    return makeField<number, O>(builder, schema, opts);
  };
}

const SECRET_MAX_LENGTH = 4096;

function secret<const O extends SecretOptions = NoOptions>(opts?: O): Field<Secret, IsOptional<O>> {
  refuseUnknownOptions('ask.secret', opts ?? {}, [
    'title',
    'description',
    'optional',
    'minLength',
    'maxLength',
  ]);
  const schema = defined({
    type: 'string',
    ...annotations(opts),
    minLength: opts?.minLength,
    maxLength: opts?.maxLength ?? SECRET_MAX_LENGTH,
  });
  const field = makeField<Secret, O>('ask.secret', schema, opts);
  return Object.freeze({ ...field, secret: true }) as Field<Secret, IsOptional<O>>;
}

function boolean<const O extends FieldOptions<boolean> = NoOptions>(opts?: O): Field<boolean, IsOptional<O>> {
  refuseUnknownOptions('ask.boolean', opts ?? {}, COMMON_OPTIONS);
  const schema = defined({ type: 'boolean', ...annotations(opts), default: opts?.default });
  return makeField<boolean, O>('ask.boolean', schema, opts);
}

/** Turns a titled record into `[{ const, title }]`, or refuses a value that is neither list nor record. */
function titledOptions(builder: string, titled: unknown): { const: string; title: string }[] {
  if (!isRecord(titled)) {
    throw new SchemaError(
      [problem('', `${builder}() takes a list of values or an object of { value: label }`)],
      `${builder}() cannot build this question`,
    );
  }
  return Object.entries(titled).map(([value, title]) => ({ const: value, title: title as string }));
}

function choice<const V extends string, const O extends FieldOptions<V> = NoOptions>(
  values: readonly V[],
  opts?: O,
): Field<V, IsOptional<O>>;
function choice<
  const M extends Record<string, string>,
  const O extends FieldOptions<keyof M & string> = NoOptions,
>(titled: M, opts?: O): Field<keyof M & string, IsOptional<O>>;
function choice(values: unknown, opts?: FieldOptions<string>): Field<string, boolean> {
  refuseUnknownOptions('ask.choice', opts ?? {}, COMMON_OPTIONS);
  const options = Array.isArray(values)
    ? { enum: [...values] }
    : { oneOf: titledOptions('ask.choice', values) };
  const schema = defined({ type: 'string', ...annotations(opts), ...options, default: opts?.default });
  return makeField('ask.choice', schema, opts);
}

function many<const V extends string, const O extends ManyOptions<V> = NoOptions>(
  values: readonly V[],
  opts?: O,
): Field<V[], IsOptional<O>>;
function many<
  const M extends Record<string, string>,
  const O extends ManyOptions<keyof M & string> = NoOptions,
>(titled: M, opts?: O): Field<(keyof M & string)[], IsOptional<O>>;
function many(values: unknown, opts?: ManyOptions<string>): Field<string[], boolean> {
  refuseUnknownOptions('ask.many', opts ?? {}, [...COMMON_OPTIONS, 'min', 'max']);
  const items = Array.isArray(values)
    ? { type: 'string', enum: [...values] }
    : { anyOf: titledOptions('ask.many', values) };
  const schema = defined({
    type: 'array',
    ...annotations(opts),
    items,
    minItems: opts?.min,
    maxItems: opts?.max,
    default: Array.isArray(opts?.default) ? [...opts.default] : opts?.default,
  });
  return makeField('ask.many', schema, opts);
}

function isField(value: unknown): value is Field<unknown, boolean> {
  return isRecord(value) && value.kind === 'field' && isRecord(value.schema);
}

function notAQuestion(name: string, value: unknown): SchemaProblem {
  const nested =
    isRecord(value) && (value.kind === 'form' || '~standard' in value)
      ? 'a form cannot contain another form; flatten the fields or ask in two rounds'
      : 'each field must be a question built with ask.text(), ask.number(), ask.choice() and friends';
  return problem(pointer('/properties', name), nested);
}

function form<const F extends Record<string, Field<unknown, boolean>>>(fields: F): Form<FormAnswer<F>> {
  if (!isRecord(fields)) {
    throw new SchemaError(
      [problem('', 'ask.form() takes an object of fields, like { name: ask.text() }')],
      'ask.form() cannot build this form',
    );
  }
  const entries = Object.entries(fields);
  const problems = entries
    .filter(([, field]) => !isField(field))
    .map(([name, field]) => notAQuestion(name, field));
  if (problems.length > 0) throw new SchemaError(problems, 'ask.form() cannot build this form');
  const required = entries.filter(([, field]) => !field.optional).map(([name]) => name);
  const schema: RequestedSchema = {
    type: 'object',
    properties: Object.fromEntries(entries.map(([name, field]) => [name, field.schema])),
    ...(required.length > 0 ? { required } : {}),
  };
  const leftover = checkRequestedSchema(schema);
  if (leftover.length > 0) throw new SchemaError(leftover, 'ask.form() cannot build this form');
  const secretFields = entries.filter(([, field]) => field.secret === true).map(([name]) => name);
  return Object.freeze({
    kind: 'form',
    schema: frozenCopy(schema),
    ...(secretFields.length > 0 && { secretFields: Object.freeze(secretFields) }),
  }) as Form<FormAnswer<F>>;
}

/**
 * Typed question builders. Each returns a frozen question whose answer type follows the builder;
 * each checks its options and throws {@link SchemaError} naming the fix when they cannot be sent.
 *
 * @example
 * const age = ask.integer({ title: 'Age', min: 0, max: 150 }); // answers number
 * const size = ask.choice(['s', 'm', 'l'], { default: 'm' }); // answers 's' | 'm' | 'l'
 * const signup = ask.form({
 *   email: ask.email({ title: 'Email' }),
 *   topics: ask.many({ news: 'News', offers: 'Offers' }, { max: 2, optional: true }),
 * }); // answers { email: string; topics?: ('news' | 'offers')[] }
 */
export const ask = Object.freeze({
  /** Free text. */
  text: textField('ask.text', undefined),
  /** An email address (format `email`). */
  email: textField('ask.email', 'email'),
  /** An absolute URI (format `uri`). */
  url: textField('ask.url', 'uri'),
  /** A calendar date `YYYY-MM-DD` (format `date`). */
  date: textField('ask.date', 'date'),
  /** An RFC 3339 date-time with offset (format `date-time`). */
  dateTime: textField('ask.dateTime', 'date-time'),
  /** Any finite number. */
  number: numberField('ask.number', 'number'),
  /** A whole number. */
  integer: numberField('ask.integer', 'integer'),
  /** Yes or no. */
  boolean,
  /** One of a list of values, or of an object `{ value: label }` for titled options. */
  choice,
  /** Any number of a list of values, or of an object `{ value: label }` for titled options. */
  many,
  /**
   * A secret (a password, an API key, a card number): answered only on a page of the MCP server,
   * never in a form the client shows, and answered as a {@link Secret} whose `reveal()` gives the
   * text. A form with a secret field is answered on the page as a whole.
   */
  secret,
  /** A form of several named questions. */
  form,
});
