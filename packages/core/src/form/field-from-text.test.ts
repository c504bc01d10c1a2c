import { describe, expect, it } from 'vitest';
import { fieldFromText } from './field-from-text.js';
import type { FieldKind, FormField } from './types.js';

const field = (kind: FieldKind, extra: Partial<FormField> = {}): FormField => ({
  name: 'f',
  required: true,
  title: 'F',
  kind,
  ...extra,
});

const colors = field('many', {
  options: [
    { value: 'red', label: 'Red' },
    { value: 'blue', label: 'Blue' },
    { value: 'a,b', label: 'Comma' },
  ],
});
const size = field('choice', {
  options: [
    { value: 's', label: 'Small' },
    { value: 'S', label: 'Extra small' },
    { value: 'm', label: 'Medium' },
  ],
});

describe('fieldFromText', () => {
  it.each([
    ['text', field('text'), 'hello ', 'hello '],
    ['empty text', field('text'), '', undefined],
    ['an email, trimmed', field('email'), ' a@example.com ', 'a@example.com'],
    ['blank for a date', field('date'), '   ', undefined],
    ['an integer', field('integer'), '42', 42],
    ['a signed integer', field('integer'), '-7', -7],
    ['an integer in exponent form', field('integer'), '1e3', 1000],
    ['a number', field('number'), ' 3.25 ', 3.25],
    ['a leading-dot number', field('number'), '.5', 0.5],
    ['yes', field('boolean'), 'Yes', true],
    ['n', field('boolean'), 'n', false],
    ['false', field('boolean'), 'FALSE', false],
    ['a choice by value', size, 'm', 'm'],
    ['a choice by exact value among case twins', size, 'S', 'S'],
    ['a choice by label', size, 'medium', 'm'],
    ['a multi-select list', colors, 'red, Blue', ['red', 'blue']],
    ['a multi-select value with a comma', colors, 'a,b', ['a,b']],
    ['a multi-select list with blanks', colors, 'red,, ', ['red']],
    ['blank for a multi-select', colors, '', undefined],
  ])('converts %s', (_name, described, text, value) => {
    expect(fieldFromText(described, text)).toEqual({ ok: true, value });
  });

  it.each([
    ['a word for a number', field('number'), 'ten', 'Enter a number'],
    ['hex for a number', field('number'), '0x10', 'Enter a number'],
    ['Infinity', field('number'), 'Infinity', 'Enter a number'],
    ['an overflowing exponent', field('number'), '1e999', 'Enter a number'],
    ['a thousands separator', field('integer'), '1,000', 'Enter a whole number'],
    ['a fraction for an integer', field('integer'), '4.5', 'Enter a whole number'],
    ['maybe', field('boolean'), 'maybe', 'Answer yes or no'],
    [
      'an unknown choice',
      size,
      'large',
      '"large" is not an option; choose one of: Small, Extra small, Medium',
    ],
    [
      'an ambiguous choice',
      field('choice', {
        options: [
          { value: 'a', label: 'X' },
          { value: 'b', label: 'x' },
        ],
      }),
      'X',
      expect.stringMatching(/not an option/),
    ],
    ['an unknown pick', colors, 'red, green', '"green" is not an option; choose one of: Red, Blue, Comma'],
  ])('refuses %s', (_name, described, text, message) => {
    expect(fieldFromText(described, text)).toEqual({ ok: false, message });
  });

  it('never throws', () => {
    expect(fieldFromText(field('number'), undefined as unknown as string)).toEqual({
      ok: false,
      message: 'Type an answer',
    });
    expect(fieldFromText(null as unknown as FormField, 'x')).toEqual({
      ok: false,
      message: 'This answer cannot be read',
    });
  });
});
