import { inspect } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ask } from './builders.js';
import { prepareQuestion } from './prepare.js';
import { SchemaError } from './schema-error.js';
import { isSecret, Secret } from './secret.js';
import type { Answer } from './types.js';

describe('Secret', () => {
  const secret = new Secret('sk_live_4242');

  it('gives its text only to reveal()', () => {
    expect(secret.reveal()).toBe('sk_live_4242');
    expect(secret.length).toBe(12);
  });

  it('shows [secret] wherever it is turned into text by mistake', () => {
    expect(String(secret)).toBe('[secret]');
    expect(`${secret}`).toBe('[secret]');
    expect(`key: ${secret}`).not.toContain('4242');
    expect(JSON.stringify({ key: secret })).toBe('{"key":"[secret]"}');
    expect(inspect({ key: secret })).not.toContain('4242');
    expect(inspect(secret)).toBe('Secret([secret])');
    expect(Object.keys(secret)).toEqual([]);
  });

  it('is told apart from strings', () => {
    expect(isSecret(secret)).toBe(true);
    expect(isSecret('sk_live_4242')).toBe(false);
  });
});

describe('ask.secret()', () => {
  it('is a string field marked secret, capped at 4096 characters, never pre-filled', () => {
    const field = ask.secret({ title: 'Courier API key', minLength: 8 });
    expect(field.secret).toBe(true);
    expect(field.schema).toEqual({ type: 'string', title: 'Courier API key', minLength: 8, maxLength: 4096 });
    expect(() => ask.secret({ default: 'x' } as never)).toThrow(SchemaError);
  });

  it('answers a Secret, for a bare field and inside a form', () => {
    const bare = prepareQuestion(ask.secret({ title: 'Key' }));
    expect(bare.secretFields).toEqual(['value']);
    const parsed = bare.parse({ value: 'abc' });
    expect(parsed.ok && parsed.value instanceof Secret && parsed.value.reveal()).toBe('abc');

    const form = ask.form({ account: ask.text(), key: ask.secret() });
    expect(form.secretFields).toEqual(['key']);
    const prepared = prepareQuestion(form);
    expect(prepared.secretFields).toEqual(['key']);
    const answer = prepared.parse({ account: 'alice', key: 'k-123' });
    expect(answer.ok).toBe(true);
    const value = (answer as { value: { account: string; key: Secret } }).value;
    expect(value.account).toBe('alice');
    expect(value.key.reveal()).toBe('k-123');
    expectTypeOf<Answer<typeof form>>().toEqualTypeOf<{ account: string; key: Secret }>();
  });

  it('is never confused with a text field of the same schema', () => {
    const text = prepareQuestion(ask.text({ maxLength: 4096 }));
    const secret = prepareQuestion(ask.secret());
    expect(text.secretFields).toEqual([]);
    expect(secret.secretFields).toEqual(['value']);
    expect(prepareQuestion(ask.form({ a: ask.text({ maxLength: 4096 }) })).secretFields).toEqual([]);
    expect(prepareQuestion(ask.form({ a: ask.secret() })).secretFields).toEqual(['a']);
  });

  it('checks lengths like any text, without echoing the value', () => {
    const parsed = prepareQuestion(ask.secret({ minLength: 8 })).parse({ value: 'short-1' });
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed)).not.toContain('short-1');
  });
});
