import { describe, expect, it } from 'vitest';
import { readConnectionSettings } from './connection-options.js';

describe('readConnectionSettings', () => {
  it('reads every flag', () => {
    expect(
      readConnectionSettings({
        era: 'handshake',
        answers: 'a.json',
        verbose: true,
        header: ['Authorization: Bearer a:b', 'X-Team:  blue '],
        timeout: '2.5',
        'max-rounds': '7',
        output: 'json',
        root: ['src', '/tmp/data'],
        'no-open': true,
      }),
    ).toEqual({
      era: 'handshake',
      answersFile: 'a.json',
      verbose: true,
      headers: { Authorization: 'Bearer a:b', 'X-Team': 'blue' },
      requestTimeoutMs: 2500,
      maxRounds: 7,
      output: 'json',
      roots: ['src', '/tmp/data'],
      openBrowser: false,
    });
    expect(readConnectionSettings({ 'no-roots': true }).roots).toBe('none');
  });

  it('has defaults', () => {
    expect(readConnectionSettings({})).toEqual({
      era: 'auto',
      answersFile: undefined,
      verbose: false,
      headers: undefined,
      requestTimeoutMs: undefined,
      maxRounds: undefined,
      output: 'text',
      roots: undefined,
      openBrowser: true,
    });
  });

  it.each([
    [{ era: 'new' }, '--era must be auto, modern or handshake; got "new"'],
    [{ output: 'yaml' }, '--output must be text or json; got "yaml"'],
    [{ header: ['NoColon'] }, '--header must look like "Name: value"; got "NoColon"'],
    [{ timeout: '0' }, '--timeout must be a positive number; got "0"'],
    [{ 'max-rounds': '2.5' }, '--max-rounds must be a whole number; got "2.5"'],
    [{ root: ['src'], 'no-roots': true }, '--root and --no-roots contradict each other; use one'],
    [{ root: [''] }, '--root needs a directory'],
  ])('refuses %o', (flags, message) => {
    expect(() => readConnectionSettings(flags)).toThrow(message);
  });
});
