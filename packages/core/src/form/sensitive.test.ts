import { describe, expect, it } from 'vitest';
import { ask } from './builders.js';
import { prepareQuestion } from './prepare.js';
import { secretAskedIn, sensitiveFields } from './sensitive.js';

const schemaOf = (fields: Parameters<typeof ask.form>[0]) => prepareQuestion(ask.form(fields)).schema;

describe('sensitiveFields', () => {
  it.each([
    ['password', 'a password'],
    ['newPassword', 'a password'],
    ['passphrase', 'a password'],
    ['api_key', 'a key'],
    ['apiKey', 'a key'],
    ['accessToken', 'a token'],
    ['refresh-token', 'a token'],
    ['client_secret', 'a secret'],
    ['cardNumber', 'payment card details'],
    ['cvv', 'payment card details'],
    ['iban', 'bank account details'],
    ['ssn', 'a social security number'],
    ['pin', 'a PIN or one-time code'],
    ['otp', 'a PIN or one-time code'],
  ])('flags a field named %s as %s', (name, looksLike) => {
    expect(sensitiveFields(schemaOf({ [name]: ask.text() }))).toEqual([{ name, looksLike }]);
  });

  it('reads titles and descriptions too', () => {
    expect(sensitiveFields(schemaOf({ code: ask.text({ title: 'Your GitHub password' }) }))).toHaveLength(1);
    expect(
      sensitiveFields(schemaOf({ code: ask.text({ description: 'The API key from your dashboard' }) })),
    ).toHaveLength(1);
  });

  it('leaves ordinary fields alone', () => {
    const schema = schemaOf({
      name: ask.text(),
      email: ask.email(),
      token_count: ask.integer(),
      pin_code: ask.text({ title: 'Post office PIN code' }),
      passenger: ask.text(),
      compass: ask.text(),
      boxes: ask.integer(),
      keyboard: ask.choice(['US', 'UK']),
    });
    expect(sensitiveFields(schema)).toEqual([]);
  });
});

describe('secretAskedIn', () => {
  it('reads free text such as a form message', () => {
    expect(secretAskedIn('Please paste your GitHub API key')).toBe('a key');
    expect(secretAskedIn('What is your new password?')).toBe('a password');
    expect(secretAskedIn('How many boxes?')).toBeUndefined();
    expect(secretAskedIn('What is the PIN code of your post office?')).toBeUndefined();
  });
});
