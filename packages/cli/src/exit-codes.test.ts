import { ParleyError, type ParleyErrorKind } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeForError, exitCodeForResult } from './exit-codes.js';

describe('exit codes', () => {
  it.each([
    ['unanswered', false, EXIT.usage],
    ['invalid-answer', false, EXIT.usage],
    ['cancelled', false, EXIT.refused],
    ['declined', false, EXIT.refused],
    ['server', false, EXIT.failure],
    ['server', true, EXIT.refused],
    ['protocol', true, EXIT.failure],
    ['connection', false, EXIT.failure],
    ['timeout', false, EXIT.failure],
    ['round-limit', false, EXIT.failure],
    ['host', false, EXIT.failure],
  ] as [ParleyErrorKind, boolean, number][])(
    '%s (ended on a refusal: %s) exits %i',
    (kind, refused, code) => {
      expect(exitCodeForError(new ParleyError(kind, 'x'), refused)).toBe(code);
    },
  );

  it('treats anything that is not a ParleyError as a failure', () => {
    expect(exitCodeForError(new Error('boom'), false)).toBe(EXIT.failure);
  });

  it('tells a tool error from a call that ended on the person refusing', () => {
    expect(exitCodeForResult(false, false)).toBe(EXIT.ok);
    expect(exitCodeForResult(false, true)).toBe(EXIT.ok);
    expect(exitCodeForResult(true, false)).toBe(EXIT.toolError);
    expect(exitCodeForResult(true, true)).toBe(EXIT.refused);
  });
});
