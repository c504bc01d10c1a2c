import { describe, expect, it } from 'vitest';
import { ask } from './builders.js';
import { listFields, optionLabel } from './fields.js';
import { prepareQuestion } from './prepare.js';
import type { RequestedSchema } from './types.js';

describe('listFields', () => {
  it('describes every shape of the subset, in property order', () => {
    const schema: RequestedSchema = {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          title: 'Name',
          description: 'Your name',
          minLength: 1,
          maxLength: 40,
          default: 'Ann',
        },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        born: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        score: { type: 'number', minimum: 0, maximum: 1 },
        age: { type: 'integer', default: 30 },
        ok: { type: 'boolean', default: false },
        size: { type: 'string', enum: ['s', 'm'] },
        level: { type: 'string', oneOf: [{ const: 'lo', title: 'Low' }] },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
        tags: {
          type: 'array',
          items: { type: 'string', enum: ['x', 'y'] },
          minItems: 1,
          maxItems: 2,
          default: ['x'],
        },
        picks: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
      },
      required: ['name', 'tags'],
    };
    expect(listFields(schema)).toEqual([
      {
        name: 'name',
        required: true,
        title: 'Name',
        description: 'Your name',
        kind: 'text',
        default: 'Ann',
        minLength: 1,
        maxLength: 40,
      },
      { name: 'email', required: false, title: 'email', kind: 'email' },
      { name: 'site', required: false, title: 'site', kind: 'uri' },
      { name: 'born', required: false, title: 'born', kind: 'date' },
      { name: 'at', required: false, title: 'at', kind: 'date-time' },
      { name: 'score', required: false, title: 'score', kind: 'number', minimum: 0, maximum: 1 },
      { name: 'age', required: false, title: 'age', kind: 'integer', default: 30 },
      { name: 'ok', required: false, title: 'ok', kind: 'boolean', default: false },
      {
        name: 'size',
        required: false,
        title: 'size',
        kind: 'choice',
        options: [
          { value: 's', label: 's' },
          { value: 'm', label: 'm' },
        ],
      },
      {
        name: 'level',
        required: false,
        title: 'level',
        kind: 'choice',
        options: [{ value: 'lo', label: 'Low' }],
      },
      {
        name: 'legacy',
        required: false,
        title: 'legacy',
        kind: 'choice',
        options: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
      {
        name: 'tags',
        required: true,
        title: 'tags',
        kind: 'many',
        default: ['x'],
        minItems: 1,
        maxItems: 2,
        options: [
          { value: 'x', label: 'x' },
          { value: 'y', label: 'y' },
        ],
      },
      { name: 'picks', required: false, title: 'picks', kind: 'many', options: [{ value: 'p', label: 'P' }] },
    ]);
  });

  it('returns fresh data: changing a field leaves the schema and later calls alone', () => {
    const schema: RequestedSchema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', enum: ['x'] }, default: ['x'] } },
    };
    const [first] = listFields(schema);
    (first!.default as string[]).push('changed');
    expect(schema.properties.tags!.default).toEqual(['x']);
    expect(listFields(schema)[0]!.default).toEqual(['x']);
  });

  it('leaves out properties outside the subset and never throws', () => {
    const odd = {
      type: 'object',
      properties: {
        a: { type: 'object' },
        b: 'x',
        c: { type: 'string', format: 'ipv4' },
        d: { type: 'boolean' },
      },
    };
    expect(listFields(odd as unknown as RequestedSchema).map((field) => field.name)).toEqual(['d']);
    for (const junk of [null, undefined, 1, 'x', [], { properties: null }]) {
      expect(listFields(junk as unknown as RequestedSchema)).toEqual([]);
    }
  });
});

describe('optionLabel', () => {
  it('reads a value as its option label, or as itself when there is none', () => {
    const [priority, tags, name] = listFields(
      prepareQuestion(
        ask.form({
          priority: ask.choice({ low: 'Low priority', high: 'High priority' }),
          tags: ask.many(['a', 'b']),
          name: ask.text(),
        }),
      ).schema,
    );
    expect(optionLabel(priority!, 'low')).toBe('Low priority');
    expect(optionLabel(tags!, 'b')).toBe('b');
    expect(optionLabel(priority!, 'unknown')).toBe('unknown');
    expect(optionLabel(name!, 'Ada')).toBe('Ada');
  });
});
