import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { checkRequestedSchema } from './check-schema.js';
import { parseContent } from './parse-content.js';
import { prepareQuestion } from './prepare.js';
import { SchemaError } from './schema-error.js';
import type { Answer, QuestionInput } from './types.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function refusal(schema: unknown): SchemaError {
  try {
    prepareQuestion(schema as QuestionInput);
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('expected a SchemaError');
}

describe('zod objects convert to the form subset', () => {
  it('maps every representable field', () => {
    const signup = z.object({
      name: z.string().min(1).max(40).describe('Your name'),
      email: z.email(),
      legacyEmail: z.string().email(),
      site: z.url().optional(),
      born: z.iso.date(),
      at: z.iso.datetime({ offset: true }),
      age: z.int().min(0).max(150),
      count: z.int().gt(0).lt(10),
      anyInt: z.int(),
      score: z.number().default(95.5),
      ok: z.boolean(),
      size: z.enum(['s', 'm', 'l']),
      level: z.union([z.literal('lo').meta({ title: 'Low' }), z.literal('hi').meta({ title: 'High' })]),
      plain: z.union([z.literal('a'), z.literal('b')]),
      tags: z
        .array(z.enum(['x', 'y']))
        .min(1)
        .max(2),
      picks: z.array(z.union([z.literal('p').meta({ title: 'P' }), z.literal('q').meta({ title: 'Q' })])),
      titled: z.string().meta({ title: 'Title', examples: ['e'] }),
    });
    const { schema } = prepareQuestion(signup);
    expect(schema).toEqual({
      $schema: DIALECT,
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 40, description: 'Your name' },
        email: { type: 'string', format: 'email' },
        legacyEmail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        born: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        count: { type: 'integer', minimum: 1, maximum: 9 },
        anyInt: { type: 'integer' },
        score: { type: 'number', default: 95.5 },
        ok: { type: 'boolean' },
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        level: {
          type: 'string',
          oneOf: [
            { const: 'lo', title: 'Low' },
            { const: 'hi', title: 'High' },
          ],
        },
        plain: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 2 },
        picks: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'p', title: 'P' },
              { const: 'q', title: 'Q' },
            ],
          },
        },
        titled: { type: 'string', title: 'Title' },
      },
      required: [
        'name',
        'email',
        'legacyEmail',
        'born',
        'at',
        'age',
        'count',
        'anyInt',
        'ok',
        'size',
        'level',
        'plain',
        'tags',
        'picks',
        'titled',
      ],
    });
    expect(checkRequestedSchema(schema)).toEqual([]);
  });

  it('drops what says nothing to the person: strictObject, a root description', () => {
    const strict = z.strictObject({ a: z.string() }).describe('A form');
    expect(prepareQuestion(strict).schema).toEqual({
      $schema: DIALECT,
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('types the answer as the zod output', () => {
    const schema = z.object({
      n: z.string().transform((text) => text.length),
      tag: z.enum(['a', 'b']).optional(),
    });
    expectTypeOf<Answer<typeof schema>>().toEqualTypeOf<{ n: number; tag?: 'a' | 'b' | undefined }>();
    expect(parseContent(schema, { n: 'abc' })).toEqual({ ok: true, value: { n: 3 } });
  });
});

describe('zod schemas that cannot be sent are refused, naming the construct', () => {
  it.each([
    [
      '.regex()',
      z.object({ code: z.string().regex(/^[A-Z]{3}$/) }),
      '/properties/code/pattern',
      /^\.regex\(\) cannot be sent/,
    ],
    [
      'a format plus .regex()',
      z.object({ e: z.email().regex(/x/) }),
      '/properties/e/pattern',
      /^\.regex\(\)/,
    ],
    ['.lowercase()', z.object({ s: z.string().lowercase() }), '/properties/s/pattern', /^\.lowercase\(\)/],
    ['z.ipv4()', z.object({ ip: z.ipv4() }), '/properties/ip/format', /^z\.ipv4\(\)/],
    [
      '.startsWith()',
      z.object({ s: z.string().startsWith('x') }),
      '/properties/s/pattern',
      /^\.startsWith\(\)/,
    ],
    ['z.uuid()', z.object({ id: z.uuid() }), '/properties/id/format', /^z\.uuid\(\) \(format "uuid"\)/],
    [
      'z.iso.time()',
      z.object({ t: z.iso.time() }),
      '/properties/t/format',
      /^z\.iso\.time\(\) \(format "time"\)/,
    ],
    [
      '.gt() on a number',
      z.object({ n: z.number().gt(0) }),
      '/properties/n/exclusiveMinimum',
      /^\.gt\(\) or \.positive\(\)/,
    ],
    [
      '.nullable()',
      z.object({ n: z.string().nullable() }),
      '/properties/n',
      /^\.nullable\(\).*use \.optional\(\)/,
    ],
    [
      'z.literal()',
      z.object({ k: z.literal('fixed') }),
      '/properties/k/const',
      /^z\.literal\(\) fields cannot be asked/,
    ],
    [
      'a nested object',
      z.object({ o: z.object({ a: z.string() }) }),
      '/properties/o/type',
      /^nested objects/,
    ],
    [
      'an array of strings',
      z.object({ l: z.array(z.string()) }),
      '/properties/l/items/enum',
      /multi-select needs items/,
    ],
    [
      'a number enum',
      z.object({ e: z.union([z.literal(1), z.literal(2)]) }),
      '/properties/e/anyOf',
      /composition/,
    ],
    [
      'z.date()',
      z.object({ d: z.date() }),
      '',
      /zod cannot describe this schema as JSON Schema \(Date cannot be represented/,
    ],
    [
      'z.looseObject()',
      z.looseObject({ a: z.string() }),
      '/additionalProperties',
      /additionalProperties cannot be sent/,
    ],
    [
      'z.record()',
      z.object({ r: z.record(z.string(), z.string()) }),
      '/properties/r/type',
      /^nested objects/,
    ],
  ])('%s', (_name, schema, path, message) => {
    const error = refusal(schema);
    expect(error.problems.map((item) => item.path)).toEqual([path]);
    expect(error.problems[0]!.message).toMatch(message);
    expect(error.message).toMatch(/^This zod schema cannot be sent as an MCP form:/);
  });

  it('refuses a zod schema that is not an object', () => {
    expect(refusal(z.string()).problems[0]!.message).toMatch(
      /must be z\.object\(\{ \.\.\. \}\), not a zod string/,
    );
  });

  it('refuses a zod-vendored schema without zod 4 internals (zod 3)', () => {
    const zod3Like = { '~standard': { vendor: 'zod', version: 1, validate: () => ({ value: {} }) } };
    expect(refusal(zod3Like).problems[0]!.message).toMatch(/zod 3 schemas are not supported/);
  });

  it('refuses a default that does not fit the field', () => {
    const error = refusal(z.object({ n: z.int().min(1).max(3).default(7) }));
    expect(error.problems.map((item) => item.path)).toEqual(['/properties/n/default']);
  });
});

describe('parsing with a zod question', () => {
  const booking = z
    .object({
      from: z.iso.date(),
      to: z.iso.date(),
      guests: z.int().min(1).max(4),
    })
    .refine((value) => value.from <= value.to, {
      message: 'The stay must end after it starts',
      path: ['to'],
    });

  it('checks the wire rules first, with one message per field', () => {
    expect(parseContent(booking, { from: '2026-02-30', to: '2026-03-01', guests: 9 })).toEqual({
      ok: false,
      errors: [
        { field: 'from', message: 'Enter a real date as YYYY-MM-DD, like 2026-07-28' },
        { field: 'guests', message: 'Enter a whole number between 1 and 4' },
      ],
    });
  });

  it('then runs the zod refinements, whose issues become field errors', () => {
    expect(parseContent(booking, { from: '2026-03-02', to: '2026-03-01', guests: 2 })).toEqual({
      ok: false,
      errors: [{ field: 'to', message: 'The stay must end after it starts' }],
    });
    expect(parseContent(booking, { from: '2026-03-01', to: '2026-03-02', guests: 2 })).toEqual({
      ok: true,
      value: { from: '2026-03-01', to: '2026-03-02', guests: 2 },
    });
  });

  it('applies zod defaults to fields left empty', () => {
    const schema = z.object({ score: z.number().default(95.5) });
    expect(parseContent(schema, {})).toEqual({ ok: true, value: { score: 95.5 } });
  });

  it('reports an async refinement instead of throwing or hanging', () => {
    const schema = z.object({ a: z.string() }).refine(async () => true);
    const result = parseContent(schema, { a: 'x' });
    expect(result).toEqual({
      ok: false,
      errors: [{ field: '', message: expect.stringMatching(/async refinements/) }],
    });
  });

  it('runs an async refinement once, and a rejection it ends in is handled (zod alone leaves one unhandled)', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      let runs = 0;
      const schema = z.object({
        site: z.string().refine(async (value) => {
          runs++;
          await null;
          return new URL(value).protocol === 'https:';
        }),
      });
      expect(parseContent(schema, { site: 'not a url' })).toMatchObject({
        ok: false,
        errors: [{ field: '', message: expect.stringMatching(/async refinements/) }],
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(runs).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('runs a schema with synchronous refinements and transforms as before, valid or not', () => {
    let runs = 0;
    const schema = z.object({ name: z.string().transform((value) => value.trim()), age: z.number() }).refine(
      (value) => {
        runs++;
        return value.age >= 18;
      },
      { message: 'Adults only', path: ['age'] },
    );
    expect(parseContent(schema, { name: ' Ann ', age: 30 })).toEqual({
      ok: true,
      value: { name: 'Ann', age: 30 },
    });
    expect(runs).toBe(1);
    expect(parseContent(schema, { name: 'Bo', age: 12 })).toEqual({
      ok: false,
      errors: [{ field: 'age', message: 'Adults only' }],
    });
  });
});
