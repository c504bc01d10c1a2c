import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask } from './builders.js';
import { prepareQuestion } from './prepare.js';
import { SchemaError } from './schema-error.js';
import type { RequestedSchema } from './types.js';

describe('prepareQuestion', () => {
  it('wraps a bare field as { value }, required unless optional', () => {
    expect(prepareQuestion(ask.text({ title: 'Name' }))).toMatchObject({
      wrapped: true,
      schema: {
        type: 'object',
        properties: { value: { type: 'string', title: 'Name' } },
        required: ['value'],
      },
    });
    expect(prepareQuestion(ask.boolean({ optional: true })).schema).toEqual({
      type: 'object',
      properties: { value: { type: 'boolean' } },
    });
  });

  it('passes a form through unwrapped', () => {
    const form = ask.form({ a: ask.text() });
    const prepared = prepareQuestion(form);
    expect(prepared.wrapped).toBe(false);
    expect(prepared.schema).toEqual(form.schema);
  });

  it('returns the same prepared question for the same object', () => {
    const question = ask.form({ a: ask.text() });
    expect(prepareQuestion(question)).toBe(prepareQuestion(question));
    const schema = z.object({ a: z.string() });
    expect(prepareQuestion(schema)).toBe(prepareQuestion(schema));
  });

  it('is cheap when called again: repeated calls do not redo the work', () => {
    const schema = z.object(
      Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`f${index}`, z.enum(['a', 'b', 'c'])])),
    );
    // Counted, not timed: the work is reading the schema, and a repeated call reads none of it.
    let reads = 0;
    const watched = new Proxy(schema, {
      get(target, property, receiver) {
        reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    const first = prepareQuestion(watched);
    expect(reads).toBeGreaterThan(0);
    reads = 0;
    for (let round = 0; round < 1000; round++) expect(prepareQuestion(watched)).toBe(first);
    expect(reads).toBe(0);
  });

  it('checks and freezes a raw schema without freezing or keeping the caller object', () => {
    const raw: RequestedSchema = { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } };
    const prepared = prepareQuestion(raw);
    expect(Object.isFrozen(raw)).toBe(false);
    expect(Object.isFrozen(prepared.schema)).toBe(true);
    expect(Object.isFrozen((prepared.schema.properties.a as { enum: string[] }).enum)).toBe(true);
    expect(prepared.schema).not.toBe(raw);
    expect(prepared.parse({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('throws a SchemaError listing every problem of a raw schema', () => {
    const raw = {
      type: 'object',
      properties: { a: { type: 'object' }, b: { type: 'string', format: 'ipv4' } },
    } as unknown as RequestedSchema;
    expect(() => prepareQuestion(raw)).toThrow(SchemaError);
    expect(() => prepareQuestion(raw)).toThrow(
      'This question cannot be sent as an MCP form:\n' +
        '- /properties/a/type: nested objects cannot be asked in a form; flatten the fields or ask in two rounds\n' +
        '- /properties/b/format: format "ipv4" cannot be sent; use one of email, uri, date, date-time, or plain text ' +
        'checked on the server after the answer',
    );
  });

  it('re-checks hand-made question objects instead of trusting them', () => {
    const forged = { kind: 'field', schema: { type: 'string', pattern: 'x' }, optional: false };
    expect(() => prepareQuestion(forged as never)).toThrow(/\/properties\/value\/pattern/);
  });
});
