import { describe, expect, it } from 'vitest';
import { safeLogText } from './log.js';

describe('safeLogText', () => {
  it('makes control, C1 and bidi characters visible and inert', () => {
    expect(safeLogText('a\u001b[2Jb\u0007c\u009bd\u202ee\r')).toBe(
      'a\\u{1b}[2Jb\\u{7}c\\u{9b}d\\u{202e}e\\u{d}',
    );
  });

  it('indents every line after the first, so no line can pose as a log entry', () => {
    const forged = safeLogText("Refused 'x\n[parley] error: all good'");
    expect(
      forged
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith('    ')),
    ).toBe(true);
  });
});
