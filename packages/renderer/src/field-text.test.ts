import type { FormField } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { fieldHint, hiddenValueText } from './field-text.js';

const field = (extra: Partial<FormField> & Pick<FormField, 'kind'>): FormField => ({
  name: 'f',
  title: 'F',
  required: true,
  ...extra,
});

describe('fieldHint', () => {
  it('says text bounds in characters', () => {
    expect(fieldHint(field({ kind: 'text', minLength: 2, maxLength: 40 }))).toBe('From 2 to 40 characters.');
    expect(fieldHint(field({ kind: 'text', minLength: 3, maxLength: 3 }))).toBe('Exactly 3 characters.');
    expect(fieldHint(field({ kind: 'text', maxLength: 10 }))).toBe('Up to 10 characters.');
    expect(fieldHint(field({ kind: 'text' }))).toBe('');
  });

  it('says what a number field takes', () => {
    expect(fieldHint(field({ kind: 'integer', minimum: 1, maximum: 5 }))).toBe('A whole number from 1 to 5.');
    expect(fieldHint(field({ kind: 'number', minimum: 0.5 }))).toBe('A number at least 0.5.');
    expect(fieldHint(field({ kind: 'number' }))).toBe('A number.');
  });

  it('says how many options to choose', () => {
    expect(fieldHint(field({ kind: 'many', minItems: 1, maxItems: 2 }))).toBe('Choose from 1 to 2.');
    expect(fieldHint(field({ kind: 'many', maxItems: 2 }))).toBe('Choose up to 2.');
    expect(fieldHint(field({ kind: 'many' }))).toBe('');
  });

  it('gives an example for email and URI, and the zone for a date-time', () => {
    expect(fieldHint(field({ kind: 'email' }))).toContain('name@example.com');
    expect(fieldHint(field({ kind: 'uri' }))).toContain('https://');
    expect(fieldHint(field({ kind: 'date-time' }), 'UTC+02:00')).toBe('In your time zone (UTC+02:00).');
    expect(fieldHint(field({ kind: 'boolean' }))).toBe('');
  });
});

describe('hiddenValueText', () => {
  const text = field({ kind: 'text' });

  it('says how long a secret is, never what it is', () => {
    expect(hiddenValueText(text, 'sk-live-1234')).toBe('hidden (12 characters)');
    expect(hiddenValueText(text, 'x')).toBe('hidden (1 character)');
    expect(hiddenValueText(field({ kind: 'integer' }), 123456)).toBe('hidden (6 characters)');
    expect(hiddenValueText(text, '')).toBe('hidden (0 characters)');
  });

  it('counts what the person sees: an emoji or an accented letter is one character', () => {
    expect(hiddenValueText(text, 'p🔑w')).toBe('hidden (3 characters)');
    expect(hiddenValueText(text, 'é')).toBe('hidden (1 character)');
    expect(hiddenValueText(text, 'e\u0301')).toBe('hidden (1 character)');
    expect(hiddenValueText(text, '👩‍💻')).toBe('hidden (1 character)');
  });

  it('says No answer for a field left empty, and shows nothing of other values', () => {
    expect(hiddenValueText(text, undefined)).toBe('No answer');
    expect(hiddenValueText(field({ kind: 'boolean' }), true)).toBe('hidden');
    expect(hiddenValueText(field({ kind: 'many' }), ['a', 'b'])).toBe('hidden');
    expect(hiddenValueText(field({ kind: 'choice' }), 'eu')).toBe('hidden');
  });
});
