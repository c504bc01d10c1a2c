import { describe, expect, it } from 'vitest';
import { MESSAGE_LIMIT, readReply } from './answer.js';

describe('readReply', () => {
  it('takes a 200 with ok as done, with the server’s message', () => {
    expect(readReply(200, { ok: true, message: ' Thanks, go back to your app. ' })).toEqual({
      kind: 'done',
      message: 'Thanks, go back to your app.',
    });
    expect(readReply(200, { ok: true })).toEqual({ kind: 'done', message: '' });
  });

  it('takes a 422 as values to fix, keeping only well-formed errors', () => {
    expect(
      readReply(422, {
        ok: false,
        message: 'Check the boxes.',
        errors: [{ field: 'boxes', message: 'At most 5' }, { field: 3 }, null, 'x', { message: 'no field' }],
      }),
    ).toEqual({
      kind: 'fix',
      message: 'Check the boxes.',
      errors: [{ field: 'boxes', message: 'At most 5' }],
    });
    expect(readReply(422, undefined)).toEqual({
      kind: 'fix',
      message: 'Some answers need attention.',
      errors: [],
    });
  });

  it('takes 403, 404 and 410 as a link that no longer takes answers', () => {
    expect(readReply(410, { ok: false, message: 'This link expired at 14:32.' })).toEqual({
      kind: 'closed',
      message: 'This link expired at 14:32.',
    });
    expect(readReply(410, undefined)).toEqual({
      kind: 'closed',
      message: 'This link has expired or was already used.',
    });
    expect(readReply(403, {}).kind).toBe('closed');
    expect(readReply(404, {}).kind).toBe('closed');
  });

  it('lets the person send again after anything else', () => {
    expect(readReply(400, { ok: false, message: 'Send JSON.' })).toEqual({
      kind: 'retry',
      message: 'Send JSON.',
    });
    expect(readReply(413, {}).kind).toBe('retry');
    expect(readReply(415, {}).kind).toBe('retry');
    expect(readReply(502, undefined)).toEqual({
      kind: 'retry',
      message: 'The server could not take your answer (HTTP 502). Try again.',
    });
    // A 200 that does not say ok is not taken as done.
    expect(readReply(200, { ok: 'yes', message: 'Hm' })).toEqual({ kind: 'retry', message: 'Hm' });
  });

  it('caps server text', () => {
    const long = 'x'.repeat(MESSAGE_LIMIT + 500);
    const outcome = readReply(400, { message: long, errors: [] });
    expect(outcome.message).toHaveLength(MESSAGE_LIMIT);
    expect(outcome.message.endsWith('…')).toBe(true);
    const errors = Array.from({ length: 80 }, () => ({ field: 'a', message: 'y'.repeat(1000) }));
    const fix = readReply(422, { errors });
    expect(fix.kind === 'fix' && fix.errors.length).toBe(50);
    expect(fix.kind === 'fix' && fix.errors[0]!.message.length).toBe(300);
  });
});
