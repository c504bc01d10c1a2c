import { describe, expect, expectTypeOf, it } from 'vitest';
import { ask } from './builders.js';
import { checkRequestedSchema } from './check-schema.js';
import { parseContent } from './parse-content.js';
import { SchemaError } from './schema-error.js';
import type { Answer, Field } from './types.js';

/** The SchemaError a builder call throws, for asserting its problems. */
function thrown(build: () => unknown): SchemaError {
  try {
    build();
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('expected a SchemaError');
}

describe('field builders produce the spec shapes', () => {
  it.each([
    ['text', ask.text(), { type: 'string' }],
    [
      'text with every option',
      ask.text({ title: 'Name', description: 'Full name', minLength: 1, maxLength: 9, default: 'Ann' }),
      { type: 'string', title: 'Name', description: 'Full name', minLength: 1, maxLength: 9, default: 'Ann' },
    ],
    [
      'email',
      ask.email({ default: 'a@example.com' }),
      { type: 'string', format: 'email', default: 'a@example.com' },
    ],
    ['url', ask.url(), { type: 'string', format: 'uri' }],
    ['date', ask.date(), { type: 'string', format: 'date' }],
    ['dateTime', ask.dateTime(), { type: 'string', format: 'date-time' }],
    [
      'number',
      ask.number({ min: 0.5, max: 2, default: 1 }),
      { type: 'number', minimum: 0.5, maximum: 2, default: 1 },
    ],
    ['integer', ask.integer({ min: 1 }), { type: 'integer', minimum: 1 }],
    ['boolean', ask.boolean({ default: true }), { type: 'boolean', default: true }],
    [
      'untitled choice',
      ask.choice(['a', 'b'], { default: 'a' }),
      { type: 'string', enum: ['a', 'b'], default: 'a' },
    ],
    [
      'titled choice',
      ask.choice({ low: 'Low priority', high: 'High priority' }),
      {
        type: 'string',
        oneOf: [
          { const: 'low', title: 'Low priority' },
          { const: 'high', title: 'High priority' },
        ],
      },
    ],
    [
      'untitled multi-select',
      ask.many(['a', 'b', 'c'], { min: 1, max: 2, default: ['a'] }),
      {
        type: 'array',
        items: { type: 'string', enum: ['a', 'b', 'c'] },
        minItems: 1,
        maxItems: 2,
        default: ['a'],
      },
    ],
    [
      'titled multi-select',
      ask.many({ x: 'X', y: 'Y' }),
      {
        type: 'array',
        items: {
          anyOf: [
            { const: 'x', title: 'X' },
            { const: 'y', title: 'Y' },
          ],
        },
      },
    ],
  ])('%s', (_name, field, schema) => {
    expect(field.kind).toBe('field');
    expect(field.schema).toEqual(schema);
    expect(Object.isFrozen(field)).toBe(true);
    expect(Object.isFrozen(field.schema)).toBe(true);
  });

  it('marks optional fields', () => {
    expect(ask.text({ optional: true }).optional).toBe(true);
    expect(ask.text({ default: 'x' }).optional).toBe(false);
  });

  it('copies lists, so later changes to the caller arrays do not reach the question', () => {
    const values = ['a', 'b'];
    const picks = ['a'];
    const field = ask.many(values, { default: picks });
    values.push('c');
    picks.push('b');
    expect(field.schema).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['a', 'b'] },
      default: ['a'],
    });
  });
});

describe('ask.form', () => {
  it('builds a flat form; optional fields stay out of required, defaults stay required', () => {
    const form = ask.form({
      name: ask.text({ title: 'Name' }),
      age: ask.integer({ default: 30 }),
      note: ask.text({ optional: true }),
    });
    expect(form.schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer', default: 30 },
        note: { type: 'string' },
      },
      required: ['name', 'age'],
    });
    expect(checkRequestedSchema(form.schema)).toEqual([]);
    expect(Object.isFrozen(form.schema.required)).toBe(true);
  });

  it('leaves required out when every field is optional', () => {
    expect(ask.form({ a: ask.boolean({ optional: true }) }).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean' } },
    });
  });

  it('refuses fields that are not questions, and nested forms', () => {
    const error = thrown(() =>
      ask.form({
        a: { type: 'string' },
        b: ask.form({ c: ask.text() }),
      } as unknown as Record<string, Field>),
    );
    expect(error.problems).toEqual([
      { path: '/properties/a', message: expect.stringMatching(/built with ask\.text\(\)/) },
      { path: '/properties/b', message: expect.stringMatching(/cannot contain another form/) },
    ]);
  });
});

describe('builders refuse inputs that cannot be sent, naming the fix', () => {
  it.each([
    ['an empty choice list', () => ask.choice([]), ['/enum']],
    ['an empty titled choice', () => ask.choice({}), ['/oneOf']],
    ['duplicate choice values', () => ask.choice(['a', 'a']), ['/enum/1']],
    ['a default not in the choices', () => ask.choice(['a', 'b'], { default: 'c' as 'a' }), ['/default']],
    ['min above max', () => ask.number({ min: 5, max: 1 }), ['/minimum']],
    ['a default out of range', () => ask.integer({ min: 1, max: 3, default: 7 }), ['/default']],
    ['a fractional integer default', () => ask.integer({ default: 1.5 }), ['/default']],
    ['minLength above maxLength', () => ask.text({ minLength: 3, maxLength: 1 }), ['/minLength']],
    ['a negative length', () => ask.text({ maxLength: -1 }), ['/maxLength']],
    ['a default that is not an email', () => ask.email({ default: 'nope' }), ['/default']],
    ['a default that is not a date', () => ask.date({ default: '2026-02-30' }), ['/default']],
    ['many: min above the option count', () => ask.many(['a'], { min: 2 }), ['/minItems']],
    ['many: a default outside the options', () => ask.many(['a'], { default: ['b' as 'a'] }), ['/default']],
    ['many: min above max', () => ask.many(['a', 'b'], { min: 2, max: 1 }), ['/minItems']],
    ['a non-finite bound', () => ask.number({ max: Number.POSITIVE_INFINITY }), ['/maximum']],
    ['an unknown option', () => ask.text({ pattern: 'x' } as object), ['']],
    ['a choice of something else', () => ask.choice(7 as unknown as string[]), ['']],
  ])('%s', (_name, build, paths) => {
    const error = thrown(build);
    expect(error.problems.map((item) => item.path)).toEqual(paths);
    expect(error.message).toMatch(/^ask\.\w+\(\) cannot build this question:\n- /);
  });

  it('says what an unknown option could have been', () => {
    expect(thrown(() => ask.number({ minimum: 1 } as object)).problems[0]!.message).toBe(
      'unknown option "minimum" for ask.number(); use only title, description, default, optional, min, max',
    );
  });
});

describe('answer types follow the builder', () => {
  it('types each field', () => {
    const text = ask.text({ title: 'Name' });
    expectTypeOf<Answer<typeof text>>().toEqualTypeOf<string>();
    const bare = ask.text();
    expectTypeOf<Answer<typeof bare>>().toEqualTypeOf<string>();
    const choice = ask.choice(['a', 'b']);
    expectTypeOf<Answer<typeof choice>>().toEqualTypeOf<'a' | 'b'>();
    const titled = ask.choice({ low: 'Low priority', high: 'High priority' });
    expectTypeOf<Answer<typeof titled>>().toEqualTypeOf<'low' | 'high'>();
    const picks = ask.many(['x', 'y'], { min: 1 });
    expectTypeOf<Answer<typeof picks>>().toEqualTypeOf<('x' | 'y')[]>();
    const optional = ask.integer({ optional: true });
    expectTypeOf<Answer<typeof optional>>().toEqualTypeOf<number | undefined>();
    const withDefault = ask.boolean({ default: true });
    expectTypeOf<Answer<typeof withDefault>>().toEqualTypeOf<boolean>();
    const explicit = ask.email({ optional: false });
    expectTypeOf<Answer<typeof explicit>>().toEqualTypeOf<string>();
    const options: { optional?: boolean } = {};
    const unknownOptional = ask.date(options);
    expectTypeOf<Answer<typeof unknownOptional>>().toEqualTypeOf<string | undefined>();
  });

  it('types a form, with optional keys for optional fields', () => {
    const form = ask.form({
      name: ask.text(),
      size: ask.choice(['s', 'm']),
      tags: ask.many({ a: 'A' }, { optional: true }),
    });
    expectTypeOf<Answer<typeof form>>().toEqualTypeOf<{ name: string; size: 's' | 'm'; tags?: 'a'[] }>();
    const result = parseContent(form, { name: 'Ann', size: 's' });
    if (result.ok) expectTypeOf(result.value.size).toEqualTypeOf<'s' | 'm'>();
    expect(result).toEqual({ ok: true, value: { name: 'Ann', size: 's' } });
  });

  it('rejects a default outside the choices at compile time', () => {
    // @ts-expect-error 'c' is not one of the choices
    expect(() => ask.choice(['a', 'b'], { default: 'c' })).toThrow(SchemaError);
  });
});
