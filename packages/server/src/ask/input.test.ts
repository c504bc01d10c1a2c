import { ask } from '@parley/core/form';
import { describe, expect, it } from 'vitest';
import { input } from './input.js';

describe('input', () => {
  it('builds the batch entry of what ctx.elicit asks alone', () => {
    const question = ask.form({ name: ask.text() });
    expect(input.elicit('What is your name?', question, { mentionsSecret: true })).toEqual({
      kind: 'form',
      message: 'What is your name?',
      question,
      mentionsSecret: true,
    });
  });

  it('keeps input.form, its name before, for one release', () => {
    const question = ask.text();
    expect(input.form('Your city?', question)).toEqual(input.elicit('Your city?', question));
  });
});
