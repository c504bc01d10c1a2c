import { describe, expect, it } from 'vitest';
import { tokenize } from './secret-tokens.js';

const words = (text: string) => tokenize(text).map((token) => token.word);

describe('tokenize', () => {
  it.each([
    ['mfaCode', ['mfa', 'code']],
    ['x-api-key', ['x', 'api', 'key']],
    ['X-API-Key', ['x', 'api', 'key']],
    ['APIKey', ['api', 'key']],
    ['OPENAI_API_KEY', ['openai', 'api', 'key']],
    ['cvv2', ['cvv', '2']],
    ['card_last4', ['card', 'last', '4']],
    ['2FA', ['2fa']],
    ['GitHub token', ['github', 'token']],
    ['Contraseña', ['contraseña']],
  ])('splits the identifier %s', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it('drops the tails of contractions and spells out "not"', () => {
    expect(words("What's your PIN")).toEqual(['what', 'your', 'pin']);
    expect(words('Don’t paste it')).toEqual(['do', 'not', 'paste', 'it']);
    expect(words("can't, won't, we'll")).toEqual(['can', 'not', ',', 'will', 'not', ',', 'we']);
    expect(words("Mother's maiden name")).toEqual(['mother', 'maiden', 'name']);
  });

  it('turns sentence and clause ends into breaks, one at a time', () => {
    expect(words('Enter it. Then go!')).toEqual(['enter', 'it', '.', 'then', 'go', '.']);
    expect(words('Email, password (and PIN)')).toEqual(['email', ',', 'password', ',', 'and', 'pin', ',']);
    expect(words('first line\n\nsecond - third')).toEqual(['first', 'line', '.', 'second', ',', 'third']);
    expect(words('db.internal:5432 e.g. this')).toEqual(['db', 'internal', '5432', 'e', 'g', '.', 'this']);
    expect(words('...Hello')).toEqual(['hello']);
  });

  it('marks a colon, which shows a value when text follows it', () => {
    const [, , colon] = tokenize('API key: sk-1234');
    expect(colon).toEqual({ word: '.', caps: false, colon: true });
  });

  it('keeps whether a word was written in capitals', () => {
    expect(tokenize('PIN Pin pin I').map((token) => token.caps)).toEqual([true, false, false, true]);
  });
});
