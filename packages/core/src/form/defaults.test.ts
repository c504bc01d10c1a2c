import { describe, expect, it } from 'vitest';
import { applyDefaults, liberalContent } from './defaults.js';
import { parseContent } from './parse-content.js';
import type { RequestedSchema } from './types.js';

// The schema of the conformance scenario elicitation-sep1034-client-defaults (digest §6.4).
const sep1034: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
    note: { type: 'string' },
  },
  required: [],
};

describe('applyDefaults', () => {
  it('fills every empty field that has a default, and the result parses', () => {
    const filled = applyDefaults(sep1034, undefined);
    expect(filled).toEqual({
      name: 'John Doe',
      age: 30,
      score: 95.5,
      status: 'active',
      verified: true,
      tags: ['a'],
    });
    expect(parseContent(sep1034, filled).ok).toBe(true);
  });

  it('keeps what was answered, including false and empty values', () => {
    expect(applyDefaults(sep1034, { verified: false, name: '', tags: [] })).toMatchObject({
      verified: false,
      name: '',
      tags: [],
      age: 30,
    });
  });

  it('returns fresh data: neither the content nor the schema is shared', () => {
    const content = { note: 'x' };
    const filled = applyDefaults(sep1034, content);
    expect(content).toEqual({ note: 'x' });
    (filled.tags as string[]).push('b');
    expect(sep1034.properties.tags!.default).toEqual(['a']);
  });

  it('copies a __proto__ key as data: it never sets the copy’s prototype', () => {
    const content = JSON.parse('{"__proto__": {"polluted": true}, "note": "x"}') as Record<string, unknown>;
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","default":"d"},"note":{"type":"string"}}}',
    ) as RequestedSchema;
    const filled = applyDefaults(schema, content);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(Object.hasOwn(filled, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(filled, '__proto__')?.value).toEqual({ polluted: true });
    expect((filled as { polluted?: unknown }).polluted).toBeUndefined();
    const defaulted = applyDefaults(schema, { note: 'x' });
    expect(Object.getPrototypeOf(defaulted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(defaulted, '__proto__')?.value).toBe('d');
  });

  it('fills only required fields when the person saw the defaults pre-filled', () => {
    const schema: RequestedSchema = {
      type: 'object',
      properties: {
        size: { type: 'string', default: 'm' },
        note: { type: 'string', default: 'fragile' },
      },
      required: ['size'],
    };
    expect(applyDefaults(schema, {}, 'prefilled')).toEqual({ size: 'm' });
    expect(applyDefaults(schema, {}, 'not-prefilled')).toEqual({ size: 'm', note: 'fragile' });
  });

  it('never throws on odd input', () => {
    expect(applyDefaults(null as unknown as RequestedSchema, { a: 1 })).toEqual({ a: 1 });
    expect(applyDefaults(sep1034, 'x' as unknown as Record<string, unknown>)).toMatchObject({ age: 30 });
  });
});

describe('liberalContent', () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer', default: 3 }, note: { type: 'string' } },
  } as const;
  it('reads a null as a field left empty, and a field left out as its default', () => {
    expect(liberalContent(schema as never, { n: null, note: null })).toEqual({ n: 3 });
    expect(liberalContent(schema as never, { note: 'hi' })).toEqual({ n: 3, note: 'hi' });
  });
  it('leaves a wrong value as sent, for the check to refuse', () => {
    expect(liberalContent(schema as never, { n: { nested: 1 } })).toEqual({ n: { nested: 1 } });
  });
});
