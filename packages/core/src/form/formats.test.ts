import { describe, expect, it } from 'vitest';
import { codePointLength, isDate, isDateTime, isEmail, isUri } from './formats.js';

describe('codePointLength', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['héllo', 5],
    ['😀', 1],
    ['👍🏽', 2],
    ['𝕏y', 2],
  ])('%j has %i characters', (text, length) => {
    expect(codePointLength(text)).toBe(length);
  });

  it('counts a lone surrogate as one character', () => {
    expect(codePointLength('\uD800x')).toBe(2);
  });
});

describe('isEmail', () => {
  it.each([
    'a@example.com',
    'first.last@example.co.uk',
    'x+tag@sub.example.org',
    "o'brien@example.ie",
    'a@xn--bcher-kva.example',
    'user@a-b.io',
  ])('accepts %s', (text) => {
    expect(isEmail(text)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@localhost',
    'a@example',
    'a b@example.com',
    'a@exa mple.com',
    ' a@example.com',
    'a@example.com ',
    '.a@example.com',
    'a.@example.com',
    'a..b@example.com',
    'a@@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@example..com',
    'a@example.123',
    'a@192.168.0.1',
    '"quoted"@example.com',
    'jösé@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(64)}.com`,
    `a@${'b.'.repeat(130)}com`,
  ])('refuses %j', (text) => {
    expect(isEmail(text)).toBe(false);
  });
});

describe('isUri', () => {
  it.each([
    'https://example.com',
    'https://example.com/path?q=1#frag',
    'http://127.0.0.1:8080/',
    'mailto:a@example.com',
    'urn:isbn:0451450523',
    'file:///tmp/x',
    'https://example.com/%E2%9C%93',
    'HTTPS://EXAMPLE.COM',
  ])('accepts %s', (text) => {
    expect(isUri(text)).toBe(true);
  });

  it.each([
    '',
    'example.com',
    '/relative/path',
    '//example.com',
    'https://exa mple.com',
    'https://example.com/a b',
    ' https://example.com',
    'https://example.com\n',
    'https://bücher.de',
    'https://example.com/%zz',
    '1http://example.com',
    'http://[::1',
    'https://',
  ])('refuses %j', (text) => {
    expect(isUri(text)).toBe(false);
  });
});

describe('isDate', () => {
  it.each(['2026-07-28', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])('accepts %s', (text) => {
    expect(isDate(text)).toBe(true);
  });

  it.each([
    '',
    '2026-7-28',
    '2026/07/28',
    '26-07-28',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-04-31',
    '2023-02-29',
    '1900-02-29',
    '2026-07-28T00:00:00Z',
    ' 2026-07-28',
    '２０２６-07-28',
  ])('refuses %j', (text) => {
    expect(isDate(text)).toBe(false);
  });
});

describe('isDateTime', () => {
  it.each([
    '2026-07-28T14:30:00Z',
    '2026-07-28T14:30:00.123Z',
    '2026-07-28T14:30:00+02:00',
    '2026-07-28T14:30:00-11:30',
    '2026-07-28t14:30:00z',
    '2016-12-31T23:59:60Z',
    '2024-02-29T00:00:00+00:00',
  ])('accepts %s', (text) => {
    expect(isDateTime(text)).toBe(true);
  });

  it.each([
    '',
    '2026-07-28',
    '2026-07-28T14:30:00',
    '2026-07-28 14:30:00Z',
    '2026-07-28T14:30Z',
    '2026-07-28T24:00:00Z',
    '2026-07-28T14:60:00Z',
    '2026-07-28T14:30:61Z',
    '2026-07-28T14:30:00+24:00',
    '2026-07-28T14:30:00+02:60',
    '2026-07-28T14:30:00+0200',
    '2026-07-28T14:30:00.Z',
    '2023-02-29T10:00:00Z',
    '2026-07-28T14:30:00ZZ',
  ])('refuses %j', (text) => {
    expect(isDateTime(text)).toBe(false);
  });
});
