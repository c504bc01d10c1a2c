// Why a keyword cannot be sent in a form field, and what to do instead. Keywords not listed here
// get a generic "unknown keyword" message that lists what the field allows.

const NESTED = 'nested objects cannot be asked in a form; flatten the fields or ask in two rounds';

const composition = (keyword: string) =>
  `${keyword} composition cannot be sent; describe the field with one plain type ` +
  '(for a titled choice use oneOf: [{ const, title }] on a string field)';

// Kept out of the table below: an object with a `then` key looks like a promise.
const CONDITIONAL = ['if', 'then', 'else'];

const FORBIDDEN: Record<string, string> = {
  $ref: '$ref cannot be sent; inline the referenced schema here',
  $defs: '$defs cannot be sent; inline each schema where it is used',
  definitions: 'definitions cannot be sent; inline each schema where it is used',
  allOf: composition('allOf'),
  anyOf: composition('anyOf'),
  not: composition('not'),
  const:
    'const fields cannot be asked (the answer would be fixed); remove the field, or offer choices with enum',
  pattern:
    'pattern cannot be sent (clients do not enforce it); use a format, or check the value on the server ' +
    'after the answer',
  properties: NESTED,
  additionalProperties: NESTED,
  patternProperties: NESTED,
  required: NESTED,
  exclusiveMinimum: 'exclusiveMinimum cannot be sent; use minimum (inclusive) instead',
  exclusiveMaximum: 'exclusiveMaximum cannot be sent; use maximum (inclusive) instead',
  multipleOf: 'multipleOf cannot be sent; check it on the server after the answer',
  uniqueItems: 'uniqueItems cannot be sent; a multi-select never repeats an option anyway, so remove it',
  contains: 'contains cannot be sent; use minItems/maxItems on a multi-select',
  prefixItems: 'tuples cannot be asked in a form; ask each value as its own field',
  nullable: 'nullable cannot be sent; leave the field out of required instead',
};

/** Keywords that belong to another kind of field, with the kind they belong to. */
const ELSEWHERE: Record<string, string> = {
  minLength: 'a text field',
  maxLength: 'a text field',
  format: 'a text field',
  minimum: 'a number field',
  maximum: 'a number field',
  minItems: 'a multi-select (type "array")',
  maxItems: 'a multi-select (type "array")',
  items: 'a multi-select (type "array")',
  enum: 'a choice (type "string")',
  enumNames: 'a choice with enum (type "string")',
  oneOf: 'a titled choice (type "string", oneOf: [{ const, title }])',
};

/** The message for a keyword that the field's shape does not allow. */
export function keywordMessage(keyword: string, shapeName: string, allowed: readonly string[]): string {
  if (CONDITIONAL.includes(keyword)) return composition('if/then/else');
  if (Object.hasOwn(FORBIDDEN, keyword)) return FORBIDDEN[keyword]!;
  if (keyword === 'enumNames') return 'enumNames labels the values of enum; add enum with one value per name';
  if (Object.hasOwn(ELSEWHERE, keyword)) {
    return `${keyword} does not apply to ${shapeName}, only to ${ELSEWHERE[keyword]}; remove it`;
  }
  return `unknown keyword "${keyword}" for ${shapeName}; remove it (allowed: ${allowed.join(', ')})`;
}

export const NESTED_OBJECT_MESSAGE = NESTED;
