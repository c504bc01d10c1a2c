import { describe, expect, it } from 'vitest';
import { boundsText, displayValue } from './field-text.js';
import type { FormField } from './types.js';

const field = (extra: Partial<FormField> & Pick<FormField, 'kind'>): FormField => ({
  name: 'f',
  title: 'F',
  required: true,
  ...extra,
});

describe('boundsText', () => {
  it('says bounds briefly for a prompt line', () => {
    expect(boundsText(field({ kind: 'integer', minimum: 0, maximum: 150 }), 'short')).toBe(
      'whole number, 0–150',
    );
    expect(boundsText(field({ kind: 'integer' }), 'short')).toBe('whole number');
    expect(boundsText(field({ kind: 'number', maximum: 9 }), 'short')).toBe('at most 9');
    expect(boundsText(field({ kind: 'many', minItems: 1, maxItems: 2 }), 'short')).toBe('1–2 choices');
    expect(boundsText(field({ kind: 'text', minLength: 2 }), 'short')).toBe('at least 2 characters');
    expect(boundsText(field({ kind: 'boolean' }), 'short')).toBe('');
  });

  it('says bounds as a sentence for help under a field', () => {
    expect(boundsText(field({ kind: 'integer', minimum: 1, maximum: 5 }), 'sentence')).toBe(
      'A whole number from 1 to 5.',
    );
    expect(boundsText(field({ kind: 'text', minLength: 3, maxLength: 3 }), 'sentence')).toBe(
      'Exactly 3 characters.',
    );
    expect(boundsText(field({ kind: 'many', maxItems: 2 }), 'sentence')).toBe('Choose up to 2.');
    expect(boundsText(field({ kind: 'email' }), 'sentence')).toBe('');
  });
});

describe('displayValue', () => {
  const options = [
    { value: 'r', label: 'Red' },
    { value: 'g', label: 'Green' },
  ];

  it('shows option labels, not wire values', () => {
    expect(displayValue(field({ kind: 'choice', options }), 'g')).toBe('Green');
    expect(displayValue(field({ kind: 'many', options }), ['r', 'g'])).toBe('Red, Green');
  });

  it('says when nothing was answered or chosen', () => {
    expect(displayValue(field({ kind: 'text' }), undefined)).toBe('No answer');
    expect(displayValue(field({ kind: 'many', options }), [])).toBe('None chosen');
  });

  it('shows booleans as Yes/No and everything else as sent', () => {
    expect(displayValue(field({ kind: 'boolean' }), true)).toBe('Yes');
    expect(displayValue(field({ kind: 'boolean' }), false)).toBe('No');
    expect(displayValue(field({ kind: 'integer' }), 3)).toBe('3');
    expect(displayValue(field({ kind: 'uri' }), 'https://example.com')).toBe('https://example.com');
  });
});
