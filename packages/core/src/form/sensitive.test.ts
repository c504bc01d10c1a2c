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
    ['pw', 'a password'],
    ['mfa', 'a PIN or one-time code'],
    ['mfaCode', 'a PIN or one-time code'],
    ['x-api-key', 'a key'],
    ['seed_phrase', 'a recovery phrase'],
  ])('flags a field named %s as %s', (name, looksLike) => {
    expect(sensitiveFields(schemaOf({ [name]: ask.text() }))).toEqual([{ name, looksLike }]);
  });

  it('reads titles and descriptions too', () => {
    expect(sensitiveFields(schemaOf({ code: ask.text({ title: 'Your GitHub password' }) }))).toHaveLength(1);
    expect(
      sensitiveFields(schemaOf({ code: ask.text({ description: 'The API key from your dashboard' }) })),
    ).toHaveLength(1);
  });

  it('leaves fields alone that only name something about a secret', () => {
    const schema = schemaOf({
      password_policy_accepted: ask.text(),
      api_key_name: ask.text({ title: 'Name for the new API key' }),
      max_tokens: ask.integer({ title: 'Max tokens' }),
      pin: ask.text({ title: 'GPIO pin' }),
    });
    expect(sensitiveFields(schema)).toEqual([]);
  });

  it('reads a field whole: its title is context for its name', () => {
    expect(sensitiveFields(schemaOf({ pin_code: ask.text() }))).toHaveLength(1);
    expect(sensitiveFields(schemaOf({ pin_code: ask.text({ title: 'Post office PIN code' }) }))).toEqual([]);
  });

  it('passes yes/no and fixed choices, which carry nothing the person types', () => {
    const schema = schemaOf({
      remember_password: ask.boolean(),
      api_key: ask.choice(['production', 'staging']),
      secrets: ask.many(['db', 'smtp']),
    });
    expect(sensitiveFields(schema)).toEqual([]);
    expect(sensitiveFields(schemaOf({ pin: ask.integer() }))).toEqual([
      { name: 'pin', looksLike: 'a PIN or one-time code' },
    ]);
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

  it('catches what the old patterns missed (issue 23)', () => {
    expect(secretAskedIn('Enter the 6-digit code we texted you')).toBe('a PIN or one-time code');
    expect(secretAskedIn('We texted you a code. Enter it below.')).toBe('a PIN or one-time code');
    expect(secretAskedIn('Could you share your Slack bot token?')).toBe('a token');
    expect(secretAskedIn('API token:')).toBe('a token');
  });

  it('tells mentioning a secret from asking for it', () => {
    expect(secretAskedIn('Send you a password reset link?')).toBeUndefined();
    expect(secretAskedIn('Did you forget your password?')).toBeUndefined();
    expect(secretAskedIn('Never share your PIN with anyone.')).toBeUndefined();
    expect(secretAskedIn('Revoke the API key named ci-bot?')).toBeUndefined();
    expect(secretAskedIn('Confirm these settings?\nAPI key: sk-…1234')).toBeUndefined();
    expect(secretAskedIn('Your password was changed. Was this you?')).toBeUndefined();
    expect(secretAskedIn("What's the Secret Santa gift budget?")).toBeUndefined();
  });
});

describe('a word before the secret (issue 41)', () => {
  const names = ['store', 'save', 'keep', 'show', 'copy', 'required', 'stored'].flatMap((prefix) =>
    ['password', 'api_key', 'pin', 'token'].map((secret) => `${prefix}_${secret}`),
  );

  it.each(names)('refuses a text field named %s: a field is named by what is typed into it', (name) => {
    expect(sensitiveFields(schemaOf({ [name]: ask.text() }))).toHaveLength(1);
  });

  it('refuses the store password as a title and as a message', () => {
    expect(sensitiveFields(schemaOf({ value: ask.text({ title: 'Store password' }) }))).toEqual([
      { name: 'value', looksLike: 'a password' },
    ]);
    expect(secretAskedIn('Your store password, please')).toBe('a password');
    expect(secretAskedIn('What is the stored PIN for this account?')).toBe('a PIN or one-time code');
  });

  it('still passes a flag: a yes/no shape, or a field that is one', () => {
    expect(sensitiveFields(schemaOf({ has_password: ask.text(), mfa_required: ask.text() }))).toEqual([]);
    expect(sensitiveFields(schemaOf({ show_password: ask.boolean() }))).toEqual([]);
    expect(secretAskedIn('Store the password in your keychain?')).toBeUndefined();
  });

  it('reads a verb before "your" as a verb: naming a key is not asking for it', () => {
    expect(secretAskedIn('Name your new API key (e.g. "CI deploy")')).toBeUndefined();
    expect(secretAskedIn('Rename your API key')).toBeUndefined();
    expect(secretAskedIn('Forgot your password?')).toBeUndefined();
  });

  it('refuses identity document numbers', () => {
    expect(secretAskedIn("Enter your driver's license number")).toBe('an identity document number');
    expect(secretAskedIn("What's your passport number?")).toBe('an identity document number');
    expect(sensitiveFields(schemaOf({ passport_no: ask.text() }))).toHaveLength(1);
    expect(sensitiveFields(schemaOf({ passport_country: ask.text() }))).toEqual([]);
  });

  it('reads a bare "pass" or "Card" as a field\'s whole label, unless the field says what kind', () => {
    expect(sensitiveFields(schemaOf({ pass: ask.text() }))).toEqual([
      { name: 'pass', looksLike: 'a password' },
    ]);
    expect(sensitiveFields(schemaOf({ cc: ask.text({ title: 'Card' }) }))).toEqual([
      { name: 'cc', looksLike: 'payment card details' },
    ]);
    expect(sensitiveFields(schemaOf({ cc: ask.text({ title: 'Cc' }) }))).toEqual([]);
    expect(sensitiveFields(schemaOf({ pass: ask.text({ title: 'Day pass' }) }))).toEqual([]);
    expect(sensitiveFields(schemaOf({ card: ask.text({ title: 'Card message' }) }))).toEqual([]);
    expect(secretAskedIn('Your boarding pass')).toBeUndefined();
  });
});

describe('sensitiveFields on a schema from elsewhere', () => {
  it('reads what it can of malformed fields and never throws', () => {
    const schema = {
      type: 'object',
      properties: { a: null, b: 'text', password: { type: 'string', title: 42, description: ['x'] } },
    } as unknown as Parameters<typeof sensitiveFields>[0];
    expect(sensitiveFields(schema)).toEqual([{ name: 'password', looksLike: 'a password' }]);
  });
});
