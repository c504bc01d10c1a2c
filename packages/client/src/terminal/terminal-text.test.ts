import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTerminalSafe, terminalLine, terminalText } from './terminal-text.js';

describe('terminalText', () => {
  it('shows the escape sequences of each attack as inert text', () => {
    expect(terminalText('\x1b[1A\x1b[2KBrightgrid asks')).toBe('␛[1A␛[2KBrightgrid asks');
    expect(terminalText('\x1b]8;;https://evil.example\x07https://shop.example\x1b]8;;\x07')).toBe(
      '␛]8;;https://evil.example␇https://shop.example␛]8;;␇',
    );
    expect(terminalText('\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07')).toBe('␛]52;c;Y3VybCBldmlsIHwgc2g=␇');
    expect(terminalText('\x1b]0;owned\x1b\\')).toBe('␛]0;owned␛\\');
    expect(terminalText('\x1b[2J\x1b[H')).toBe('␛[2J␛[H');
  });

  it('makes CR, DEL, C1 controls and format characters visible', () => {
    expect(terminalText('paid\rnot paid')).toBe('paid␍not paid');
    expect(terminalText('a\x7fb\x00c')).toBe('a␡b␀c');
    expect(terminalText('\u009b2J and \u009d0;title\u009c')).toBe('<U+009B>2J and <U+009D>0;title<U+009C>');
    expect(terminalText('invoice\u202Egpj.exe')).toBe('invoice<U+202E>gpj.exe');
    expect(terminalText('\u2066x\u2069 \u061C \u200E\u200F \uFEFF \u200B \u2028')).toBe(
      '<U+2066>x<U+2069> <U+061C> <U+200E><U+200F> <U+FEFF> <U+200B> <U+2028>',
    );
  });

  it('keeps newlines, tabs, CR LF as a newline, and ordinary Unicode', () => {
    expect(terminalText('one\ntwo\tthree\r\nfour')).toBe('one\ntwo\tthree\nfour');
    const text = 'Café · 東京 · שלום · 👨‍👩‍👧 · ✔';
    expect(terminalText(text)).toBe(text);
    expect(isTerminalSafe(text)).toBe(true);
    expect(isTerminalSafe('a\x1bb')).toBe(false);
  });

  it('keeps one-line text on one line', () => {
    expect(terminalLine('Evil\nBrightgrid store (brightgrid) asks')).toBe(
      'Evil␊Brightgrid store (brightgrid) asks',
    );
    expect(terminalLine('a\r\nb\tc')).toBe('a␊b\tc');
  });

  it('leaves no control or format character in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const shown = terminalText(text);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
        const unsafe = /[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/;
        expect(shown).not.toMatch(unsafe);
        expect(isTerminalSafe(shown)).toBe(true);
      }),
    );
  });
});
