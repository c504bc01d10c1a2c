import { describe, expect, it } from 'vitest';
import { ask } from './builders.js';
import { checkRequestedSchema } from './check-schema.js';
import { prepareQuestion } from './prepare.js';
import { schemaForProtocolVersion } from './protocol-version.js';

describe('schemaForProtocolVersion', () => {
  const form = ask.form({
    level: ask.choice({ lo: 'Low', hi: 'High' }, { default: 'lo' }),
    size: ask.choice(['s', 'm'], { default: 's' }),
    name: ask.text({ default: 'Ann' }),
    age: ask.integer({ default: 3 }),
    ok: ask.boolean({ default: true }),
  });

  it('rewrites for 2025-06-18: titled oneOf to enum + enumNames, only boolean defaults kept', () => {
    const result = schemaForProtocolVersion(form.schema, '2025-06-18');
    expect(result).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: {
          level: { type: 'string', enum: ['lo', 'hi'], enumNames: ['Low', 'High'] },
          size: { type: 'string', enum: ['s', 'm'] },
          name: { type: 'string' },
          age: { type: 'integer' },
          ok: { type: 'boolean', default: true },
        },
        required: ['level', 'size', 'name', 'age', 'ok'],
      },
    });
    if (result.ok) expect(checkRequestedSchema(result.schema)).toEqual([]);
  });

  it('refuses a multi-select for 2025-06-18, naming the field', () => {
    const withPicks = prepareQuestion(ask.form({ a: ask.text(), tags: ask.many(['x', 'y']) })).schema;
    expect(schemaForProtocolVersion(withPicks, '2025-06-18')).toEqual({
      ok: false,
      problems: [
        {
          path: '/properties/tags',
          message: expect.stringMatching(/^2025-06-18 clients cannot answer a multi-select; /),
        },
      ],
    });
  });

  it.each(['2025-11-25', '2026-07-28'])('leaves %s schemas unchanged, as a fresh copy', (version) => {
    const result = schemaForProtocolVersion(form.schema, version);
    expect(result).toEqual({ ok: true, schema: form.schema });
    if (result.ok) {
      expect(result.schema).not.toBe(form.schema);
      expect(Object.isFrozen(result.schema)).toBe(false);
    }
  });

  it('does not change the schema it was given', () => {
    const before = JSON.stringify(form.schema);
    schemaForProtocolVersion(form.schema, '2025-06-18');
    expect(JSON.stringify(form.schema)).toBe(before);
  });
});
