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
    const { properties, unaskable } = argumentFields(json, ['address', 'notes', 'code', 'missing'], args);
    expect(properties).toEqual({});
    expect(unaskable.map((entry) => entry.name)).toEqual(['address', 'notes', 'code', 'missing']);
    expect(unaskable.find((entry) => entry.name === 'code')?.reason).toMatch(/\.regex\(\) cannot be sent/);
    expect(unaskable.find((entry) => entry.name === 'missing')?.reason).toBe(
      'the input schema has no such property',
    );
  });

  it("reads a schema that is not zod's without its source, and a pattern it cannot send stays unaskable", () => {
    const plain = {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^\\d{5}$' } },
    };
    const { properties, unaskable } = argumentFields(plain, ['city', 'zip']);
    expect(properties).toEqual({ city: { type: 'string', minLength: 1 } });
    expect(unaskable.map((entry) => entry.name)).toEqual(['zip']);
  });

  it('never throws on a schema that is not one', () => {
    expect(argumentFields(undefined, ['a'])).toEqual({
      properties: {},
      unaskable: [{ name: 'a', reason: 'the input schema has no such property' }],
    });
    expect(argumentFields({ properties: { a: 7 } }, ['a']).unaskable).toHaveLength(1);
  });
});
