import { describe, expect, it } from 'vitest';
import { buildArguments } from './arguments.js';

const schema = {
  type: 'object' as const,
  properties: {
    guests: { type: 'integer' },
    price: { type: 'number' },
    vip: { type: 'boolean' },
    tags: { type: 'array' },
    note: { type: 'string' },
  },
};

describe('buildArguments', () => {
  it('types --arg values by the tool schema and keeps strings as typed', () => {
    expect(
      buildArguments(
        undefined,
        ['guests=2', 'price=9.5', 'vip=true', 'tags=["a","b"]', 'note=42', 'other=x=y'],
        schema,
      ),
    ).toEqual({ guests: 2, price: 9.5, vip: true, tags: ['a', 'b'], note: '42', other: 'x=y' });
  });

  it('merges --json with --arg, --arg winning', () => {
    expect(buildArguments('{"guests": 1, "note": "hi"}', ['guests=4'], schema)).toEqual({
      guests: 4,
      note: 'hi',
    });
  });

  it('keeps every value a string without a schema', () => {
    expect(buildArguments(undefined, ['guests=2'], undefined)).toEqual({ guests: '2' });
  });

  it.each([
    [undefined, ['guests=2.5'], '--arg guests must be a whole number; got "2.5"'],
    [undefined, ['price='], '--arg price must be a number; got ""'],
    [undefined, ['vip=yes'], '--arg vip must be true or false; got "yes"'],
    [undefined, ['tags=a,b'], '--arg tags must be JSON (an array); got "a,b"'],
    [undefined, ['=x'], '--arg must look like name=value; got "=x"'],
    [undefined, ['guests'], '--arg must look like name=value; got "guests"'],
    ['{nope', [], /^--json is not valid JSON/],
    ['[1]', [], '--json must be a JSON object, like --json \'{"city": "Lisbon"}\''],
  ] as const)('refuses %s %s with the fix', (json, pairs, message) => {
    expect(() => buildArguments(json, pairs, schema)).toThrow(message);
  });
});
