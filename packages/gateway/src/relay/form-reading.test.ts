import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, readFormOf } from './form-reading.js';

const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('readFormOf', () => {
  it('applies the secret guardrail to the fields and to the message', () => {
    const plain = readFormOf('Your name?', schema({ name: { type: 'string' } }));
    expect(plain).toMatchObject({ received: { ok: true }, fields: 1, asking: false, secretFields: [] });
    const field = readFormOf('Sign in', schema({ user: { type: 'string' }, password: { type: 'string' } }));
    expect(field.secretFields).toEqual(['password']);
    // A message that asks for a secret makes every field the person types into one.
    const message = readFormOf(
      'Please paste your GitHub API key',
      schema({ value: { type: 'string' }, keep: { type: 'boolean' } }),
    );
    expect(message).toMatchObject({ asking: true, secretFields: ['value'] });
  });

  it('gives the same text the same frozen reading, and other text its own', () => {
    const first = readFormOf('Your name?', schema({ name: { type: 'string' } }));
    const again = readFormOf('Your name?', schema({ name: { type: 'string' } }));
    expect(again).toBe(first);
    expect(Object.isFrozen(first.received)).toBe(true);
    expect(() => {
      (first.secretFields as string[]).push('name');
    }).toThrow(TypeError);
    const other = readFormOf('Your name?', schema({ name: { type: 'string' }, pin: { type: 'string' } }));
    expect(other).not.toBe(first);
    expect(other.secretFields).toEqual(['pin']);
  });

  it('refuses a schema outside the subset, and reads no further than the field cap', () => {
    expect(readFormOf('Pick', schema({ nested: { type: 'object' } })).received.ok).toBe(false);
    const many = Object.fromEntries(
      Array.from({ length: MAX_FORM_FIELDS + 1 }, (_, i) => [`password${i}`, { type: 'string' }]),
    );
    expect(readFormOf('Many', schema(many))).toMatchObject({
      fields: MAX_FORM_FIELDS + 1,
      secretFields: [],
    });
  });
});
