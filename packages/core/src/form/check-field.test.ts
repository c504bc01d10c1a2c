import { describe, expect, it } from 'vitest';
import { checkField } from './check-field.js';
import type { FormField, FormValue } from './types.js';

const field = (overrides: Partial<FormField> & Pick<FormField, 'kind'>): FormField => ({
  name: 'f',
  required: false,
  title: 'F',
  ...overrides,
});

const options = [
  { value: 'lo', label: 'Low' },
  { value: 'hi', label: 'High' },
];

const cases: [string, FormField, FormValue | undefined, string | undefined][] = [
  ['a missing required field', field({ kind: 'text', required: true }), undefined, 'This field is required'],
  ['a missing optional field', field({ kind: 'number' }), undefined, undefined],
  ['text', field({ kind: 'text' }), 'hello', undefined],
  ['a number for text', field({ kind: 'text' }), 3, 'Enter text'],
  ['text too short', field({ kind: 'text', minLength: 2 }), 'a', 'Enter at least 2 characters'],
  ['text too long', field({ kind: 'text', maxLength: 1 }), 'ab', 'Enter at most 1 character'],
  [
    'text outside both bounds',
    field({ kind: 'text', minLength: 2, maxLength: 4 }),
    'abcde',
    'Enter between 2 and 4 characters',
  ],
  [
    'text of a fixed length',
    field({ kind: 'text', minLength: 3, maxLength: 3 }),
    'ab',
    'Enter exactly 3 characters',
  ],
  ['emoji counted as characters', field({ kind: 'text', maxLength: 2 }), '😀😀', undefined],
  ['emoji over the limit', field({ kind: 'text', maxLength: 1 }), '😀😀', 'Enter at most 1 character'],
  ['an email', field({ kind: 'email' }), 'a@example.com', undefined],
  ['a bad email', field({ kind: 'email' }), 'a@b', 'Enter an email address like name@example.com'],
  [
    'a relative uri',
    field({ kind: 'uri' }),
    '/x',
    'Enter a full address with its scheme, like https://example.com/page',
  ],
  ['a bad date', field({ kind: 'date' }), '2026-02-30', 'Enter a real date as YYYY-MM-DD, like 2026-07-28'],
  [
    'a local date-time',
    field({ kind: 'date-time' }),
    '2026-07-28T10:00:00',
    expect.stringMatching(/with an offset/),
  ],
  ['a number', field({ kind: 'number' }), 1.5, undefined],
  ['a numeric string', field({ kind: 'number' }), '1', 'Enter a number'],
  ['NaN', field({ kind: 'number' }), Number.NaN, 'Enter a number'],
  ['Infinity', field({ kind: 'number' }), Number.POSITIVE_INFINITY, 'Enter a number'],
  [
    'a number out of range',
    field({ kind: 'number', minimum: 1, maximum: 3 }),
    7,
    'Enter a number between 1 and 3',
  ],
  ['a number under minimum', field({ kind: 'number', minimum: 1 }), 0, 'Enter a number of at least 1'],
  ['a number over maximum', field({ kind: 'number', maximum: 1 }), 2, 'Enter a number of at most 1'],
  ['a number off a one-value range', field({ kind: 'number', minimum: 2, maximum: 2 }), 3, 'Enter 2'],
  ['a fraction for an integer', field({ kind: 'integer' }), 1.5, 'Enter a whole number'],
  [
    'an integer out of range',
    field({ kind: 'integer', minimum: 1, maximum: 3 }),
    9,
    'Enter a whole number between 1 and 3',
  ],
  ['a boolean', field({ kind: 'boolean' }), false, undefined],
  ['"true" for a boolean', field({ kind: 'boolean' }), 'true', 'Choose yes or no'],
  ['an option', field({ kind: 'choice', options }), 'lo', undefined],
  ['a label instead of the value', field({ kind: 'choice', options }), 'Low', 'Choose one of: Low, High'],
  ['a list for a choice', field({ kind: 'choice', options }), ['lo'], 'Choose one of: Low, High'],
  ['a selection', field({ kind: 'many', options }), ['hi', 'lo'], undefined],
  ['an empty selection', field({ kind: 'many', options }), [], undefined],
  ['a string for a multi-select', field({ kind: 'many', options }), 'lo', 'Choose from: Low, High'],
  ['an unknown option', field({ kind: 'many', options }), ['lo', 'mid'], 'Choose only from: Low, High'],
  ['a repeated option', field({ kind: 'many', options }), ['lo', 'lo'], 'Choose each option only once'],
  ['too few picks', field({ kind: 'many', options, minItems: 2 }), ['lo'], 'Choose at least 2'],
  ['too many picks', field({ kind: 'many', options, maxItems: 1 }), ['lo', 'hi'], 'Choose at most 1'],
  [
    'picks outside both bounds',
    field({ kind: 'many', options, minItems: 1, maxItems: 2 }),
    [],
    'Choose between 1 and 2',
  ],
];

describe('checkField', () => {
  it.each(cases)('%s', (_name, described, value, message) => {
    expect(checkField(described, value)).toEqual(message);
  });

  it('shortens a long option list', () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ value: `v${index}`, label: `L${index}` }));
    expect(checkField(field({ kind: 'choice', options: many }), 'x')).toBe(
      'Choose one of: L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, …',
    );
  });

  it('never throws, whatever it is given', () => {
    const odd = [null, {}, [1, 2], Symbol('x'), () => 1, 10n] as unknown as FormValue[];
    for (const kind of ['text', 'email', 'number', 'integer', 'boolean', 'choice', 'many'] as const) {
      for (const value of odd) expect(typeof checkField(field({ kind, options }), value)).toBe('string');
    }
    expect(checkField({ kind: 'mystery' } as unknown as FormField, 'x')).toMatch(/unknown/);
  });
});
