// @parley/core/form: one shape for every question. Builders, the requestedSchema subset checker,
// answer parsing, defaults, host field descriptions and protocol-version adaptation.

export { type ArgumentFields, argumentFields } from './argument-fields.js';
export type {
  FieldOptions,
  FormAnswer,
  IsOptional,
  ManyOptions,
  NumberOptions,
  SecretOptions,
  TextOptions,
} from './builders.js';
export { ask } from './builders.js';
export { checkField } from './check-field.js';
export { checkRequestedSchema } from './check-schema.js';
export { applyDefaults, liberalContent } from './defaults.js';
export { type ElicitReply, readElicitReply } from './elicit-reply.js';
export type { TextConversion } from './field-from-text.js';
export { fieldFromText } from './field-from-text.js';
export { type BoundsStyle, boundsText, displayValue } from './field-text.js';
export { listFields, optionLabel } from './fields.js';
export { codePointLength, isDate, isDateTime, isEmail, isUri } from './formats.js';
export { isRecord } from './json.js';
export { parseContent } from './parse-content.js';
export type { PreparedQuestion } from './prepare.js';
export { prepareQuestion, WRAPPED_FIELD } from './prepare.js';
export { schemaForProtocolVersion } from './protocol-version.js';
export { type ReceivedSchema, receiveRequestedSchema } from './receive-schema.js';
export { SchemaError } from './schema-error.js';
export { isSecret, Secret } from './secret.js';
export { type SensitiveField, secretAskedIn, sensitiveFields } from './sensitive.js';
export type {
  Answer,
  BooleanFieldSchema,
  Field,
  FieldError,
  FieldKind,
  FieldOption,
  FieldSchema,
  Form,
  FormContent,
  FormField,
  FormValue,
  LegacyTitledEnumSchema,
  NumberFieldSchema,
  ParseResult,
  Question,
  QuestionInput,
  RequestedSchema,
  SchemaProblem,
  StringFieldSchema,
  StringFormat,
  TitledMultiSelectSchema,
  TitledOption,
  TitledSingleSelectSchema,
  UntitledMultiSelectSchema,
  UntitledSingleSelectSchema,
  ZodObjectLike,
} from './types.js';
export { zodRunsAuthorCode } from './zod-author-code.js';
