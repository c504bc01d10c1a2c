import type { FormField } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { fieldHint } from './field-text.js';

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
