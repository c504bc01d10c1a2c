import { describe, expect, it } from 'vitest';
import { checkRequestedSchema } from './check-schema.js';

/** A form whose single field `f` has the given schema. */
const withField = (node: unknown) => ({ type: 'object', properties: { f: node } });

const accepted: [string, unknown][] = [
  ['an empty form', { type: 'object', properties: {} }],
  ['$schema', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} }],
  ['required fields', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }],
  ['plain text', withField({ type: 'string' })],
  [
    'text with every keyword',
    withField({ type: 'string', title: 'T', description: 'D', minLength: 1, maxLength: 5, default: 'abc' }),
  ],
  ['minLength equal to maxLength', withField({ type: 'string', minLength: 2, maxLength: 2 })],
  ['email', withField({ type: 'string', format: 'email', default: 'a@example.com' })],
  ['uri', withField({ type: 'string', format: 'uri', default: 'https://example.com/x' })],
  ['date', withField({ type: 'string', format: 'date', default: '2024-02-29' })],
  ['date-time', withField({ type: 'string', format: 'date-time', default: '2026-07-28T10:00:00+02:00' })],
  [
    'number',
    withField({ type: 'number', title: 'N', description: 'D', minimum: 0.5, maximum: 9.5, default: 1.5 }),
  ],
  ['integer', withField({ type: 'integer', minimum: -3, maximum: 3, default: 0 })],
  [
    'integer with fractional bounds around a whole number',
    withField({ type: 'integer', minimum: 0.5, maximum: 1.5 }),
  ],
  ['boolean', withField({ type: 'boolean', title: 'B', description: 'D', default: true })],
  ['untitled single-select', withField({ type: 'string', enum: ['a', 'b'], default: 'b' })],
  [
    'titled single-select',
    withField({
      type: 'string',
      oneOf: [
        { const: 'a', title: 'A' },
        { const: 'b', title: 'B' },
      ],
      default: 'a',
    }),
  ],
  ['legacy enumNames', withField({ type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'], default: 'a' })],
  [
    'untitled multi-select',
    withField({
      type: 'array',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    }),
  ],
  [
    'titled multi-select',
    withField({
      type: 'array',
      title: 'M',
      description: 'D',
      items: {
        anyOf: [
          { const: 'a', title: 'A' },
          { const: 'b', title: 'B' },
        ],
      },
      minItems: 0,
      maxItems: 2,
      default: ['a', 'b'],
    }),
  ],
  [
    'an empty multi-select default',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, default: [] }),
  ],
  [
    'a field named like an Object prototype key',
    { type: 'object', properties: { constructor: { type: 'string' } } },
  ],
  [
    'a field name with / and ~',
    { type: 'object', properties: { 'a/b~c': { type: 'string' } }, required: ['a/b~c'] },
  ],
];

describe('checkRequestedSchema accepts every shape of the subset', () => {
  it.each(accepted)('%s', (_name, schema) => {
    expect(checkRequestedSchema(schema)).toEqual([]);
  });
});

const rejected: [string, unknown, string[]][] = [
  // the root
  ['a root that is not an object', 'form', ['']],
  ['an array root', [], ['']],
  ['a root of type string', { type: 'string', properties: {} }, ['/type']],
  ['a root without type', { properties: {} }, ['/type']],
  ['a root without properties', { type: 'object' }, ['/properties']],
  ['properties that are not an object', { type: 'object', properties: [] }, ['/properties']],
  [
    'root additionalProperties',
    { type: 'object', properties: {}, additionalProperties: false },
    ['/additionalProperties'],
  ],
  ['root $defs', { type: 'object', properties: {}, $defs: { x: { type: 'string' } } }, ['/$defs']],
  ['root allOf', { type: 'object', properties: {}, allOf: [] }, ['/allOf']],
  ['root anyOf', { type: 'object', properties: {}, anyOf: [] }, ['/anyOf']],
  ['root oneOf', { type: 'object', properties: {}, oneOf: [] }, ['/oneOf']],
  ['root not', { type: 'object', properties: {}, not: {} }, ['/not']],
  ['an unknown root keyword', { type: 'object', properties: {}, minProperties: 1 }, ['/minProperties']],
  ['a $schema that is not a string', { $schema: 7, type: 'object', properties: {} }, ['/$schema']],
  ['required that is not a list', { type: 'object', properties: {}, required: 'a' }, ['/required']],
  [
    'required naming a missing property',
    { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
    ['/required/1'],
  ],
  ['required with a non-string', { type: 'object', properties: {}, required: [1] }, ['/required/0']],
  [
    'required listing a field twice',
    { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'a'] },
    ['/required/1'],
  ],
  // nesting and composition
  [
    'a nested object',
    withField({ type: 'object', properties: { x: { type: 'string' } } }),
    ['/properties/f/type'],
  ],
  ['a field that is not an object', withField('string'), ['/properties/f']],
  ['a field without type', withField({ title: 'x' }), ['/properties/f/type']],
  ['an unknown type', withField({ type: 'null' }), ['/properties/f/type']],
  ['a nullable type list', withField({ type: ['string', 'null'] }), ['/properties/f/type']],
  ['$ref', withField({ $ref: '#/$defs/x' }), ['/properties/f/$ref']],
  ['$ref beside a type', withField({ type: 'string', $ref: '#/$defs/x' }), ['/properties/f/$ref']],
  ['$defs in a field', withField({ type: 'string', $defs: {} }), ['/properties/f/$defs']],
  ['allOf', withField({ type: 'string', allOf: [{ minLength: 1 }] }), ['/properties/f/allOf']],
  [
    'anyOf on a field',
    withField({ anyOf: [{ type: 'string' }, { type: 'number' }] }),
    ['/properties/f/anyOf'],
  ],
  ['oneOf of types', withField({ oneOf: [{ type: 'string' }, { type: 'number' }] }), ['/properties/f/oneOf']],
  [
    'oneOf on a number',
    withField({ type: 'number', oneOf: [{ const: 'a', title: 'A' }] }),
    ['/properties/f/oneOf'],
  ],
  ['not', withField({ type: 'string', not: { const: 'x' } }), ['/properties/f/not']],
  ['a const field', withField({ type: 'string', const: 'x' }), ['/properties/f/const']],
  ['a bare const', withField({ const: 'x' }), ['/properties/f/const']],
  ['pattern', withField({ type: 'string', pattern: '^a+$' }), ['/properties/f/pattern']],
  [
    'field additionalProperties',
    withField({ type: 'string', additionalProperties: false }),
    ['/properties/f/additionalProperties'],
  ],
  // arrays other than multi-select
  ['an array without items', withField({ type: 'array' }), ['/properties/f/items']],
  [
    'an array of free strings',
    withField({ type: 'array', items: { type: 'string' } }),
    ['/properties/f/items/enum'],
  ],
  [
    'an array of numbers',
    withField({ type: 'array', items: { type: 'number', enum: [1] } }),
    ['/properties/f/items/type'],
  ],
  [
    'an array of objects',
    withField({ type: 'array', items: { type: 'object', properties: {} } }),
    ['/properties/f/items/type'],
  ],
  [
    'items with pattern',
    withField({ type: 'array', items: { type: 'string', enum: ['a'], pattern: 'a' } }),
    ['/properties/f/items/pattern'],
  ],
  [
    'titled items with a type',
    withField({ type: 'array', items: { type: 'string', anyOf: [{ const: 'a', title: 'A' }] } }),
    ['/properties/f/items/type'],
  ],
  [
    'uniqueItems',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, uniqueItems: true }),
    ['/properties/f/uniqueItems'],
  ],
  // formats and unknown keywords
  ['format ipv4', withField({ type: 'string', format: 'ipv4' }), ['/properties/f/format']],
  ['format time', withField({ type: 'string', format: 'time' }), ['/properties/f/format']],
  ['an unknown keyword', withField({ type: 'string', placeholder: 'x' }), ['/properties/f/placeholder']],
  ['examples', withField({ type: 'string', examples: ['x'] }), ['/properties/f/examples']],
  [
    'exclusiveMinimum',
    withField({ type: 'number', exclusiveMinimum: 0 }),
    ['/properties/f/exclusiveMinimum'],
  ],
  ['multipleOf', withField({ type: 'integer', multipleOf: 2 }), ['/properties/f/multipleOf']],
  ['minLength on a number', withField({ type: 'number', minLength: 1 }), ['/properties/f/minLength']],
  ['minimum on text', withField({ type: 'string', minimum: 1 }), ['/properties/f/minimum']],
  [
    'format on a choice',
    withField({ type: 'string', enum: ['a'], format: 'email' }),
    ['/properties/f/format'],
  ],
  ['maxItems on text', withField({ type: 'string', maxItems: 1 }), ['/properties/f/maxItems']],
  ['enum on a boolean', withField({ type: 'boolean', enum: [true] }), ['/properties/f/enum']],
  [
    'enum and oneOf together',
    withField({ type: 'string', enum: ['a'], oneOf: [{ const: 'a', title: 'A' }] }),
    ['/properties/f/enum'],
  ],
  ['a title that is not a string', withField({ type: 'string', title: 3 }), ['/properties/f/title']],
  [
    'a description that is not a string',
    withField({ type: 'boolean', description: false }),
    ['/properties/f/description'],
  ],
  // defaults
  ['a string default on a number', withField({ type: 'number', default: '3' }), ['/properties/f/default']],
  [
    'a fractional default on an integer',
    withField({ type: 'integer', default: 1.5 }),
    ['/properties/f/default'],
  ],
  [
    'a default below minimum',
    withField({ type: 'integer', minimum: 1, default: 0 }),
    ['/properties/f/default'],
  ],
  [
    'a default above maximum',
    withField({ type: 'number', maximum: 1, default: 2 }),
    ['/properties/f/default'],
  ],
  [
    'a default longer than maxLength',
    withField({ type: 'string', maxLength: 2, default: 'abc' }),
    ['/properties/f/default'],
  ],
  [
    'a default that is not an email',
    withField({ type: 'string', format: 'email', default: 'nobody' }),
    ['/properties/f/default'],
  ],
  [
    'a default that is not a real date',
    withField({ type: 'string', format: 'date', default: '2023-02-29' }),
    ['/properties/f/default'],
  ],
  ['a boolean default as text', withField({ type: 'boolean', default: 'true' }), ['/properties/f/default']],
  [
    'a default not in the enum',
    withField({ type: 'string', enum: ['a', 'b'], default: 'c' }),
    ['/properties/f/default'],
  ],
  [
    'a default not in oneOf',
    withField({ type: 'string', oneOf: [{ const: 'a', title: 'A' }], default: 'A' }),
    ['/properties/f/default'],
  ],
  [
    'a multi-select default that is not a subset',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, default: ['a', 'z'] }),
    ['/properties/f/default'],
  ],
  [
    'a multi-select default that is a string',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, default: 'a' }),
    ['/properties/f/default'],
  ],
  [
    'a multi-select default with a repeat',
    withField({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a', 'a'] }),
    ['/properties/f/default'],
  ],
  [
    'a multi-select default above maxItems',
    withField({
      type: 'array',
      items: { type: 'string', enum: ['a', 'b'] },
      maxItems: 1,
      default: ['a', 'b'],
    }),
    ['/properties/f/default'],
  ],
  // enum lists
  ['an empty enum', withField({ type: 'string', enum: [] }), ['/properties/f/enum']],
  ['an enum that is not a list', withField({ type: 'string', enum: 'a' }), ['/properties/f/enum']],
  ['duplicate enum values', withField({ type: 'string', enum: ['a', 'b', 'a'] }), ['/properties/f/enum/2']],
  ['a numeric enum value', withField({ type: 'string', enum: ['a', 1] }), ['/properties/f/enum/1']],
  [
    'an empty multi-select enum',
    withField({ type: 'array', items: { type: 'string', enum: [] } }),
    ['/properties/f/items/enum'],
  ],
  [
    'duplicate multi-select values',
    withField({ type: 'array', items: { type: 'string', enum: ['a', 'a'] } }),
    ['/properties/f/items/enum/1'],
  ],
  [
    'enumNames shorter than enum',
    withField({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }),
    ['/properties/f/enumNames'],
  ],
  [
    'enumNames longer than enum',
    withField({ type: 'string', enum: ['a'], enumNames: ['A', 'B'] }),
    ['/properties/f/enumNames'],
  ],
  [
    'enumNames with a non-string',
    withField({ type: 'string', enum: ['a'], enumNames: [1] }),
    ['/properties/f/enumNames/0'],
  ],
  ['enumNames without enum', withField({ type: 'string', enumNames: ['A'] }), ['/properties/f/enumNames']],
  ['an empty oneOf', withField({ type: 'string', oneOf: [] }), ['/properties/f/oneOf']],
  [
    'a oneOf option without title',
    withField({ type: 'string', oneOf: [{ const: 'a' }] }),
    ['/properties/f/oneOf/0/title'],
  ],
  [
    'a oneOf option with a numeric const',
    withField({ type: 'string', oneOf: [{ const: 1, title: 'One' }] }),
    ['/properties/f/oneOf/0/const'],
  ],
  [
    'a oneOf option with an extra key',
    withField({ type: 'string', oneOf: [{ const: 'a', title: 'A', description: 'x' }] }),
    ['/properties/f/oneOf/0/description'],
  ],
  ['a oneOf option that is a string', withField({ type: 'string', oneOf: ['a'] }), ['/properties/f/oneOf/0']],
  [
    'duplicate oneOf values',
    withField({
      type: 'string',
      oneOf: [
        { const: 'a', title: 'A' },
        { const: 'a', title: 'B' },
      ],
    }),
    ['/properties/f/oneOf/1/const'],
  ],
  [
    'duplicate titled multi-select values',
    withField({
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'A' },
          { const: 'a', title: 'A' },
        ],
      },
    }),
    ['/properties/f/items/anyOf/1/const'],
  ],
  [
    'an empty titled multi-select',
    withField({ type: 'array', items: { anyOf: [] } }),
    ['/properties/f/items/anyOf'],
  ],
  // bounds
  ['minimum above maximum', withField({ type: 'number', minimum: 5, maximum: 1 }), ['/properties/f/minimum']],
  [
    'no whole number in range',
    withField({ type: 'integer', minimum: 1.2, maximum: 1.8 }),
    ['/properties/f/minimum'],
  ],
  ['a non-numeric minimum', withField({ type: 'number', minimum: '1' }), ['/properties/f/minimum']],
  [
    'an infinite maximum',
    withField({ type: 'number', maximum: Number.POSITIVE_INFINITY }),
    ['/properties/f/maximum'],
  ],
  [
    'minLength above maxLength',
    withField({ type: 'string', minLength: 3, maxLength: 2 }),
    ['/properties/f/minLength'],
  ],
  ['a negative minLength', withField({ type: 'string', minLength: -1 }), ['/properties/f/minLength']],
  ['a fractional maxLength', withField({ type: 'string', maxLength: 2.5 }), ['/properties/f/maxLength']],
  [
    'minItems above maxItems',
    withField({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2, maxItems: 1 }),
    ['/properties/f/minItems'],
  ],
  [
    'a negative maxItems',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: -1 }),
    ['/properties/f/maxItems'],
  ],
  [
    'a fractional minItems',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 0.5 }),
    ['/properties/f/minItems'],
  ],
  [
    'minItems above the number of options',
    withField({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 2 }),
    ['/properties/f/minItems'],
  ],
];

describe('checkRequestedSchema rejects what leaves the subset, at the exact path', () => {
  it.each(rejected)('%s', (_name, schema, paths) => {
    const problems = checkRequestedSchema(schema);
    expect(problems.map((item) => item.path)).toEqual(paths);
    for (const item of problems) expect(item.message.length).toBeGreaterThan(20);
  });
});

describe('checkRequestedSchema messages name the fix', () => {
  const messageAt = (schema: unknown) => checkRequestedSchema(schema)[0]?.message;

  it('steers nested objects to flattening', () => {
    expect(messageAt(withField({ type: 'object' }))).toBe(
      'nested objects cannot be asked in a form; flatten the fields or ask in two rounds',
    );
  });

  it('explains why pattern is refused and what to do', () => {
    expect(messageAt(withField({ type: 'string', pattern: 'x' }))).toMatch(/check the value on the server/);
  });

  it('names the bounds and their values', () => {
    expect(messageAt(withField({ type: 'number', minimum: 5, maximum: 1 }))).toBe(
      'minimum (5) is greater than maximum (1), so no answer fits; swap or fix them',
    );
  });

  it('quotes the default and the rule it breaks', () => {
    expect(messageAt(withField({ type: 'string', enum: ['a', 'b'], default: 'c' }))).toBe(
      'default "c" does not fit this field (choose one of: a, b); change it or remove it',
    );
  });

  it('counts labels and values in words', () => {
    expect(messageAt(withField({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }))).toBe(
      'enumNames has 1 label for 2 enum values; give exactly one label per value',
    );
  });

  it('lists what an unknown keyword could have been', () => {
    expect(messageAt(withField({ type: 'boolean', placeholder: 'x' }))).toBe(
      'unknown keyword "placeholder" for a boolean field; remove it (allowed: type, title, description, default)',
    );
  });

  it('escapes field names in paths (RFC 6901)', () => {
    const problems = checkRequestedSchema({ type: 'object', properties: { 'a/b~c': { type: 'object' } } });
    expect(problems.map((item) => item.path)).toEqual(['/properties/a~1b~0c/type']);
  });

  it('reports one problem per violation, in order', () => {
    const problems = checkRequestedSchema({
      type: 'object',
      properties: {
        a: { type: 'string', pattern: 'x', minLength: -1 },
        b: { type: 'integer', minimum: 3, maximum: 1 },
      },
      required: ['c'],
    });
    expect(problems.map((item) => item.path)).toEqual([
      '/properties/a/pattern',
      '/properties/a/minLength',
      '/properties/b/minimum',
      '/required/0',
    ]);
  });
});

describe('checkRequestedSchema never throws', () => {
  it('answers a schema whose properties throw when read', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    expect(checkRequestedSchema({ type: 'object', properties: hostile })).toEqual([
      { path: '', message: expect.stringContaining('could not be read') },
    ]);
  });

  it.each([null, undefined, 0, true, 'x', Symbol('s'), () => 1])(
    'answers %s with a root problem',
    (value) => {
      expect(checkRequestedSchema(value).map((item) => item.path)).toEqual(['']);
    },
  );

  it('returns fresh problem objects on each call', () => {
    const schema = withField({ type: 'object' });
    const first = checkRequestedSchema(schema);
    const second = checkRequestedSchema(schema);
    expect(first).toEqual(second);
    expect(first[0]).not.toBe(second[0]);
  });
});
