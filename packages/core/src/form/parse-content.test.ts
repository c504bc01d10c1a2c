import { describe, expect, expectTypeOf, it } from 'vitest';
import { ask } from './builders.js';
import { parseContent } from './parse-content.js';
import type { FormContent, RequestedSchema } from './types.js';

const profile = ask.form({
  name: ask.text({ minLength: 2, maxLength: 5 }),
  email: ask.email(),
  site: ask.url({ optional: true }),
  born: ask.date({ optional: true }),
  at: ask.dateTime({ optional: true }),
  age: ask.integer({ min: 0, max: 150 }),
  score: ask.number({ optional: true }),
  ok: ask.boolean({ optional: true }),
  size: ask.choice(['s', 'm'], { optional: true }),
  level: ask.choice({ lo: 'Low', hi: 'High' }, { optional: true }),
  tags: ask.many(['x', 'y', 'z'], { min: 1, max: 2, optional: true }),
});

const valid = { name: 'Ann', email: 'ann@example.com', age: 30 };

describe('parseContent', () => {
  it('accepts a valid answer and returns a fresh copy', () => {
    const content = {
      ...valid,
      site: 'https://ann.example',
      born: '1996-02-29',
      at: '2026-07-28T09:00:00-05:00',
      score: 88.5,
      ok: false,
      size: 'm',
      level: 'hi',
      tags: ['x', 'z'],
    };
    const result = parseContent(profile, content);
    expect(result).toEqual({ ok: true, value: content });
    if (!result.ok) return;
    expect(result.value).not.toBe(content);
    expect(result.value.tags).not.toBe(content.tags);
  });

  it('reports each bad field once, in property order, then unknown fields', () => {
    const result = parseContent(profile, {
      name: 'A',
      email: 'ann at example',
      site: 'ann.example',
      born: '2026-02-30',
      at: '2026-07-28T09:00:00',
      age: 30.5,
      score: Number.NaN,
      ok: 'yes',
      size: 'xl',
      level: 'Low',
      tags: ['x', 'x'],
      extra: 1,
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: 'Enter between 2 and 5 characters' },
        { field: 'email', message: 'Enter an email address like name@example.com' },
        { field: 'site', message: 'Enter a full address with its scheme, like https://example.com/page' },
        { field: 'born', message: 'Enter a real date as YYYY-MM-DD, like 2026-07-28' },
        { field: 'at', message: expect.stringMatching(/^Enter a date and time with an offset/) },
        { field: 'age', message: 'Enter a whole number' },
        { field: 'score', message: 'Enter a number' },
        { field: 'ok', message: 'Choose yes or no' },
        { field: 'size', message: 'Choose one of: s, m' },
        { field: 'level', message: 'Choose one of: Low, High' },
        { field: 'tags', message: 'Choose each option only once' },
        { field: 'extra', message: 'This form does not ask for this field; remove it' },
      ],
    });
  });

  it('reports missing required fields', () => {
    expect(parseContent(profile, {})).toEqual({
      ok: false,
      errors: ['name', 'email', 'age'].map((field) => ({ field, message: 'This field is required' })),
    });
  });

  it('counts lengths in characters, not UTF-16 units', () => {
    expect(parseContent(profile, { ...valid, name: '😀😀😀😀😀' }).ok).toBe(true);
    expect(parseContent(profile, { ...valid, name: '😀' })).toEqual({
      ok: false,
      errors: [{ field: 'name', message: 'Enter between 2 and 5 characters' }],
    });
  });

  it('refuses strings for numbers and numbers for strings', () => {
    expect(parseContent(profile, { ...valid, age: '30' }).ok).toBe(false);
    expect(parseContent(profile, { ...valid, name: 12345 }).ok).toBe(false);
  });

  it('checks multi-select bounds and membership', () => {
    const errorsFor = (tags: unknown) => {
      const result = parseContent(profile, { ...valid, tags });
      return result.ok ? [] : result.errors.map((error) => error.message);
    };
    expect(errorsFor([])).toEqual(['Choose between 1 and 2']);
    expect(errorsFor(['x', 'y', 'z'])).toEqual(['Choose between 1 and 2']);
    expect(errorsFor(['w'])).toEqual(['Choose only from: x, y, z']);
    expect(errorsFor('x')).toEqual(['Choose from: x, y, z']);
  });

  it('treats null as a wrong value, not as a missing one', () => {
    expect(parseContent(profile, { ...valid, score: null })).toEqual({
      ok: false,
      errors: [{ field: 'score', message: 'Enter a number' }],
    });
  });

  it('does not read fields from the prototype chain', () => {
    const content = Object.create({ name: 'Ann', email: 'ann@example.com', age: 30 });
    expect(parseContent(profile, content).ok).toBe(false);
    expect(parseContent(ask.form({ constructor: ask.text() }), {})).toEqual({
      ok: false,
      errors: [{ field: 'constructor', message: 'This field is required' }],
    });
  });

  it('reports a __proto__ key from JSON as unknown, without touching prototypes', () => {
    const result = parseContent(
      profile,
      JSON.parse('{"name":"Ann","email":"a@example.com","age":1,"__proto__":{"x":1}}'),
    );
    expect(result).toEqual({
      ok: false,
      errors: [{ field: '__proto__', message: 'This form does not ask for this field; remove it' }],
    });
  });

  it('asks and parses a field named __proto__ as an ordinary field', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","minLength":2}},"required":["__proto__"]}',
    ) as RequestedSchema;
    expect(parseContent(schema, JSON.parse('{"__proto__":"ok"}'))).toEqual({
      ok: true,
      value: JSON.parse('{"__proto__":"ok"}'),
    });
    expect(parseContent(schema, JSON.parse('{"__proto__":"x"}'))).toEqual({
      ok: false,
      errors: [{ field: '__proto__', message: 'Enter at least 2 characters' }],
    });
    expect(parseContent(schema, {})).toEqual({
      ok: false,
      errors: [{ field: '__proto__', message: 'This field is required' }],
    });
  });

  it.each([null, undefined, 'text', 42, [], [{ name: 'Ann' }]])(
    'answers %j with one whole-answer error',
    (content) => {
      expect(parseContent(profile, content)).toEqual({
        ok: false,
        errors: [{ field: '', message: 'The answer must be an object of field values' }],
      });
    },
  );
});

describe('parseContent with a bare field', () => {
  it('reads { value } and returns the value itself', () => {
    const level = ask.choice({ low: 'Low priority', high: 'High priority' });
    const result = parseContent(level, { value: 'high' });
    expect(result).toEqual({ ok: true, value: 'high' });
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<'low' | 'high'>();
  });

  it('answers undefined for an optional field left empty', () => {
    expect(parseContent(ask.integer({ optional: true }), {})).toEqual({ ok: true, value: undefined });
  });

  it('reports errors on the wire field name', () => {
    expect(parseContent(ask.many(['a', 'b'], { max: 1 }), { value: ['a', 'b'] })).toEqual({
      ok: false,
      errors: [{ field: 'value', message: 'Choose at most 1' }],
    });
  });
});

describe('parseContent with a raw requestedSchema', () => {
  const schema: RequestedSchema = {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['active', 'inactive'], enumNames: ['Active', 'Inactive'] },
    },
    required: ['status'],
  };

  it('answers FormContent', () => {
    const result = parseContent(schema, { status: 'active' });
    expect(result).toEqual({ ok: true, value: { status: 'active' } });
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<FormContent>();
  });

  it('takes a schema written inline, typed as FormContent', () => {
    const result = parseContent(
      { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } },
      { a: 'x' },
    );
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<FormContent>();
    expect(result).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('turns a schema outside the subset into errors instead of throwing', () => {
    const bad = {
      type: 'object',
      properties: { a: { type: 'string', pattern: 'x' } },
    } as unknown as RequestedSchema;
    expect(parseContent(bad, { a: 'x' })).toEqual({
      ok: false,
      errors: [
        {
          field: '',
          message: expect.stringMatching(/^The question cannot be asked: \/properties\/a\/pattern: /),
        },
      ],
    });
  });

  it('turns a non-question into an error', () => {
    expect(parseContent(null as unknown as RequestedSchema, {})).toEqual({
      ok: false,
      errors: [
        {
          field: '',
          message: expect.stringMatching(/^The question cannot be asked: a question must be built/),
        },
      ],
    });
  });
});
