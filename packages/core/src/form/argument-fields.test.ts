import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentFields } from './argument-fields.js';
import { checkRequestedSchema } from './check-schema.js';

const args = z.object({
  reason: z.enum(['Broken', 'Wrong item']).optional().describe('Why it goes back'),
  boxes: z.number().int().min(1).max(3).optional(),
  order: z.number().int().positive(),
  pickup_date: z.iso.date().optional(),
  email: z.email(),
  address: z.object({ street: z.string() }),
  notes: z.array(z.string()),
  code: z.string().regex(/^[A-Z]{3}$/),
});
const json = args['~standard'].jsonSchema.input({ target: 'draft-2020-12' });

describe('argumentFields', () => {
  it('reads each askable argument as the form subset has it', () => {
    const { properties, unaskable } = argumentFields(
      json,
      ['reason', 'boxes', 'order', 'pickup_date', 'email'],
      args,
    );
    expect(unaskable).toEqual([]);
    expect(properties).toEqual({
      reason: { type: 'string', enum: ['Broken', 'Wrong item'], description: 'Why it goes back' },
      boxes: { type: 'integer', minimum: 1, maximum: 3 },
      // .positive() is an exclusive bound: a whole number from 1; z.int()'s safe range is no range.
      order: { type: 'integer', minimum: 1 },
      pickup_date: { type: 'string', format: 'date' },
      email: { type: 'string', format: 'email' },
    });
    expect(checkRequestedSchema({ type: 'object', properties, required: Object.keys(properties) })).toEqual(
      [],
    );
  });

  it('names the arguments a form cannot ask, with the reason', () => {
    const { properties, unaskable } = argumentFields(json, ['address', 'notes', 'missing'], args);
    expect(properties).toEqual({});
    expect(unaskable.map((entry) => entry.name)).toEqual(['address', 'notes', 'missing']);
    expect(unaskable.find((entry) => entry.name === 'missing')?.reason).toBe(
      'the input schema has no such property',
    );
  });

  it('leaves what a form cannot carry to the tool schema: a pattern, a format it lacks, a decimal bound', () => {
    const more = z.object({ id: z.uuid(), price: z.number().gt(0) });
    const { properties, unaskable } = argumentFields(
      more['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
      ['id', 'price'],
      more,
    );
    expect(unaskable).toEqual([]);
    expect(properties).toEqual({ id: { type: 'string' }, price: { type: 'number' } });
    expect(argumentFields(json, ['code'], args).properties).toEqual({ code: { type: 'string' } });
  });

  it("reads a schema that is not zod's without its source", () => {
    const plain = {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        zip: { type: 'string', pattern: '^\\d{5}$' },
        day: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        maybe: { type: ['string', 'null'] },
      },
    };
    const { properties, unaskable } = argumentFields(plain, ['city', 'zip', 'day', 'count', 'maybe']);
    expect(properties).toEqual({
      city: { type: 'string', minLength: 1 },
      zip: { type: 'string' },
      day: { type: 'string', format: 'date' },
      count: { type: 'integer' },
    });
    expect(unaskable.map((entry) => entry.name)).toEqual(['maybe']);
  });

  it('never throws on a schema that is not one', () => {
    expect(argumentFields(undefined, ['a'])).toEqual({
      properties: {},
      unaskable: [{ name: 'a', reason: 'the input schema has no such property' }],
    });
    expect(argumentFields({ properties: { a: 7 } }, ['a']).unaskable).toHaveLength(1);
  });
});
