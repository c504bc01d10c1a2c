import { describe, expect, it } from 'vitest';
import { isSamplingReply, samplingAnswerOf, scriptsSampling } from './scripted-sampling.js';

const REPLY = { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' };

describe('scripted sampling answers', () => {
  it('knows a CreateMessageResult from form content (whose values are never objects)', () => {
    expect(isSamplingReply(REPLY)).toBe(true);
    expect(isSamplingReply({ ...REPLY, content: [{ type: 'text', text: 'a' }] })).toBe(true);
    expect(isSamplingReply({ role: 'admin', content: 'text', model: 'x' })).toBe(false);
    expect(isSamplingReply({ action: 'accept', content: { name: 'Ada' } })).toBe(false);
  });

  it('finds a scripted reply keyed, in a keyed list, or in order; never in a function', () => {
    expect(scriptsSampling({ summary: REPLY })).toBe(true);
    expect(scriptsSampling({ summary: [{ action: 'decline' }, REPLY] })).toBe(true);
    expect(scriptsSampling([{ name: 'Ada' }, REPLY])).toBe(true);
    expect(scriptsSampling({ summary: { action: 'decline' }, name: 'Ada' })).toBe(false);
    expect(scriptsSampling(() => REPLY)).toBe(false);
  });

  it('reads a reply or a bare decline; anything else is no sampling answer', () => {
    expect(samplingAnswerOf(REPLY)).toBe(REPLY);
    expect(samplingAnswerOf({ action: 'decline' })).toEqual({ action: 'decline' });
    expect(samplingAnswerOf({ action: 'cancel' })).toBeUndefined();
    expect(samplingAnswerOf({ name: 'Ada' })).toBeUndefined();
    expect(samplingAnswerOf(undefined)).toBeUndefined();
  });
});
