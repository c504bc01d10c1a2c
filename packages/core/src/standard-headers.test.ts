import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, mcpNameField } from './standard-headers.js';

describe('the standard headers of 2026-07-28', () => {
  it('names the field Mcp-Name repeats for each method that names something', () => {
    expect(mcpNameField('tools/call')).toBe('name');
    expect(mcpNameField('resources/read')).toBe('uri');
    expect(mcpNameField('tasks/cancel')).toBe('taskId');
    expect(mcpNameField('tools/list')).toBeUndefined();
    expect(mcpNameField('toString')).toBeUndefined();
  });

  it('sends a plain value as it is, and anything else as base64 in the sentinel', () => {
    expect(encodeHeaderValue('get_weather')).toBe('get_weather');
    expect(encodeHeaderValue('file:///a b.txt')).toBe('file:///a b.txt');
    expect(encodeHeaderValue('café')).toBe(`=?base64?${Buffer.from('café').toString('base64')}?=`);
    expect(encodeHeaderValue(' padded')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('')).toBe('=?base64??=');
    expect(encodeHeaderValue('=?base64?aGk=?=')).toBe(
      `=?base64?${Buffer.from('=?base64?aGk=?=').toString('base64')}?=`,
    );
  });

  it('reads back every string it sends', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
      }),
    );
  });

  it('refuses a sentinel that is not canonical base64 of UTF-8', () => {
    expect(decodeHeaderValue('=?base64?not base64?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?aGk?=')).toBeUndefined();
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
    expect(decodeHeaderValue('  plain\t')).toBe('plain');
  });
});
