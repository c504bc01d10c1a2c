// Wire types for the MCP requestedSchema subset (spec 2025-11-25 and 2026-07-28, "Requested Schema"),
// plus the typed question shapes built on them.

/** The only string formats a form may ask for. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** Keys every field may carry. */
interface FieldSchemaBase {
  title?: string;
  description?: string;
}

/** A free-text field, optionally with a format. */
export interface StringFieldSchema extends FieldSchemaBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: StringFormat;
  default?: string;
}

/** A number field; `integer` answers whole numbers only. */
export interface NumberFieldSchema extends FieldSchemaBase {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A yes/no field. */
export interface BooleanFieldSchema extends FieldSchemaBase {
  type: 'boolean';
  default?: boolean;
}

/** Pick one of `enum`; each option is shown as its value. */
export interface UntitledSingleSelectSchema extends FieldSchemaBase {
  type: 'string';
  enum: string[];
  default?: string;
}

/** One option of a titled choice: the value sent, and the label shown. */
export interface TitledOption {
  const: string;
  title: string;
}

/** Pick one option; each option has its own label. */
export interface TitledSingleSelectSchema extends FieldSchemaBase {
  type: 'string';
  oneOf: TitledOption[];
  default?: string;
}

/** The deprecated titled choice: labels in `enumNames`, one per `enum` value. */
export interface LegacyTitledEnumSchema extends FieldSchemaBase {
  type: 'string';
  enum: string[];
  enumNames: string[];
  default?: string;
}

/** Pick any number of `items.enum`. */
export interface UntitledMultiSelectSchema extends FieldSchemaBase {
  type: 'array';
  items: { type: 'string'; enum: string[] };
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** Pick any number of options; each option has its own label. */
export interface TitledMultiSelectSchema extends FieldSchemaBase {
  type: 'array';
  items: { anyOf: TitledOption[] };
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** One field of a form: exactly the shapes in the spec's `PrimitiveSchemaDefinition`. */
export type FieldSchema =
  | StringFieldSchema
  | NumberFieldSchema
  | BooleanFieldSchema
  | UntitledSingleSelectSchema
  | TitledSingleSelectSchema
  | LegacyTitledEnumSchema
  | UntitledMultiSelectSchema
  | TitledMultiSelectSchema;

/** The `requestedSchema` of a form elicitation: a flat object of fields. */
export interface RequestedSchema {
  $schema?: string;
  type: 'object';
  properties: Record<string, FieldSchema>;
  required?: string[];
}

/** One answered value on the wire. */
export type FormValue = string | number | boolean | string[];

/** The `content` of an accepted form elicitation. */
export type FormContent = Record<string, FormValue>;

/** One way a schema leaves the subset. */
export interface SchemaProblem {
  /** JSON pointer into the schema (`''` is the root), e.g. `/properties/age/minimum`. */
  readonly path: string;
  /** What is wrong and what to do instead. */
  readonly message: string;
}

/** One field's answer that does not fit. `field` is `''` when the whole answer is wrong. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** The outcome of checking an answer: the typed value, or one message per bad field. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

declare const answerType: unique symbol;

/**
 * A single question, built with `ask.*`. `T` is the answer type; `Optional` says whether the
 * person may leave it empty.
 */
export interface Field<T = unknown, Optional extends boolean = boolean> {
  readonly kind: 'field';
  /** The field's wire schema (frozen). */
  readonly schema: FieldSchema;
  readonly optional: Optional;
  /** Built with `ask.secret()`: answered only on a page of the server, never in a form. */
  readonly secret?: true;
  /** Type-only: carries the answer type. Never present at runtime. */
  readonly [answerType]?: T;
}

/** A whole form, built with `ask.form()`. `T` is the answer object. */
export interface Form<T = FormContent> {
  readonly kind: 'form';
  /** The form's wire schema (frozen). */
  readonly schema: RequestedSchema;
  /** The fields built with `ask.secret()`: the form is then answered only on a page of the server. */
  readonly secretFields?: readonly string[];
  /** Type-only: carries the answer type. Never present at runtime. */
  readonly [answerType]?: T;
}

/** Either kind of built question. */
export type Question<T = unknown> = Field<T> | Form<T>;

/**
 * What a zod v4 object looks like from outside, without importing zod: a Standard Schema whose
 * zod definition is an object.
 */
export interface ZodObjectLike {
  readonly '~standard': {
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly input: unknown; readonly output: unknown } | undefined;
  };
  readonly _zod: { readonly def: { readonly type: 'object' } };
}

/** Anything a question can be made from. */
export type QuestionInput = Field<unknown> | Form<unknown> | RequestedSchema | ZodObjectLike;

type FieldAnswer<T, Optional extends boolean> = [Optional] extends [false] ? T : T | undefined;

type StandardOutput<S> = S extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly output: infer Output }
    ? Output
    : unknown
  : unknown;

/** The typed value a question answers. */
export type Answer<Q> =
  Q extends Field<infer T, infer Optional>
    ? FieldAnswer<T, Optional>
    : Q extends Form<infer T>
      ? T
      : Q extends ZodObjectLike
        ? StandardOutput<Q>
        : Q extends RequestedSchema
          ? FormContent
          : unknown;

/** What kind of input a host shows for a field. */
export type FieldKind =
  | 'text'
  | 'email'
  | 'uri'
  | 'date'
  | 'date-time'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'choice'
  | 'many';

/** One option of a `choice` or `many` field. */
export interface FieldOption {
  readonly value: string;
  /** The option's title, its `enumNames` entry, or the value itself. */
  readonly label: string;
}

/** Everything a host needs to render and check one field, read once from the schema. */
export interface FormField {
  readonly name: string;
  readonly required: boolean;
  /** The field's title, or its name when it has none. */
  readonly title: string;
  readonly description?: string;
  readonly kind: FieldKind;
  readonly default?: FormValue;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** For `choice` and `many`. */
  readonly options?: readonly FieldOption[];
}
