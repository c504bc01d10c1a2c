import { describe, expect, it } from 'vitest';
import { MAX_SAMPLING_REPLY, readAnswer } from './answer-body.js';

describe('readAnswer', () => {
  it('reads the three form actions, keeping accepted content', () => {
    expect(
      readAnswer('form', { action: 'accept', content: { n: 2, tags: ['a'], ok: true, s: 'x' } }),
    ).toEqual({
      action: 'accept',
      content: { n: 2, tags: ['a'], ok: true, s: 'x' },
    });
    expect(readAnswer('form', { action: 'accept' })).toEqual({ action: 'accept', content: {} });
    expect(readAnswer('form', { action: 'decline', content: { x: 1 } })).toEqual({ action: 'decline' });
    expect(readAnswer('form', { action: 'cancel' })).toEqual({ action: 'cancel' });
  });

  it('allows only the actions of the question mode', () => {
    expect(readAnswer('url', { action: 'accept' })).toEqual({ action: 'accept' });
    expect(readAnswer('url-wait', { action: 'finished' })).toEqual({ action: 'finished' });
    expect(readAnswer('url-wait', { action: 'accept' })).toBe(
      'The answer needs "action": one of finished, cancel.',
    );
    expect(readAnswer('form', { action: 'finished' })).toContain('one of accept, decline, cancel');
    expect(readAnswer('form', null)).toContain('"action"');
    expect(readAnswer('form', [])).toContain('"action"');
  });

  it('refuses content that is not a flat object of wire values', () => {
    expect(readAnswer('form', { action: 'accept', content: [] })).toBe(
      'Accepted content must be an object of field values.',
    );
    expect(readAnswer('form', { action: 'accept', content: { a: { b: 1 } } })).toContain('"a"');
    expect(readAnswer('form', { action: 'accept', content: { a: [1] } })).toContain('"a"');
    expect(readAnswer('form', { action: 'accept', content: { a: null } })).toContain('"a"');
  });

  it('keeps a field named __proto__ as data', () => {
    const answer = readAnswer('form', JSON.parse('{"action":"accept","content":{"__proto__":"x"}}'));
    expect(typeof answer).toBe('object');
    const content = (answer as { content: Record<string, unknown> }).content;
    expect(Object.keys(content)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
  });
});

describe('readAnswer for a sampling request', () => {
  it('reads approve with the typed reply, decline and cancel', () => {
    expect(readAnswer('sampling', { action: 'approve', reply: 'Paris.' })).toEqual({
      action: 'approve',
      reply: 'Paris.',
    });
    expect(readAnswer('sampling', { action: 'decline' })).toEqual({ action: 'decline' });
    expect(readAnswer('sampling', { action: 'cancel' })).toEqual({ action: 'cancel' });
    expect(readAnswer('sampling', { action: 'accept', content: {} })).toContain(
      'one of approve, decline, cancel',
    );
  });

  it('refuses an approval without a reply, or with one past the cap', () => {
    for (const reply of [undefined, '', '   ', 42]) {
      expect(readAnswer('sampling', { action: 'approve', reply })).toContain('needs "reply"');
    }
    expect(
      readAnswer('sampling', { action: 'approve', reply: 'x'.repeat(MAX_SAMPLING_REPLY + 1) }),
    ).toContain('longer than');
    expect(readAnswer('form', { action: 'approve', reply: 'x' })).toContain('one of accept, decline, cancel');
  });
});
