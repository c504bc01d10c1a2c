import { describe, expect, it } from 'vitest';
import { elicitationModes } from './capabilities.js';

describe('elicitationModes', () => {
  it.each([
    [undefined, { form: false, url: false }],
    [{}, { form: false, url: false }],
    [{ sampling: {} }, { form: false, url: false }],
    [{ elicitation: null }, { form: false, url: false }],
    [{ elicitation: true }, { form: false, url: false }],
    [{ elicitation: {} }, { form: true, url: false }],
    [{ elicitation: { form: {} } }, { form: true, url: false }],
    [{ elicitation: { url: {} } }, { form: false, url: true }],
    [{ elicitation: { form: {}, url: {} } }, { form: true, url: true }],
    [{ elicitation: { other: {} } }, { form: true, url: false }],
  ])('%j declares %j', (caps, modes) => {
    expect(elicitationModes(caps)).toEqual(modes);
  });
});

describe('elicitationModes on a session of a known revision', () => {
  it('has no URL mode on 2025-06-18, whatever the client declared (the revision has none)', () => {
    const both = { elicitation: { form: {}, url: {} } };
    expect(elicitationModes(both, '2025-06-18')).toEqual({ form: true, url: false });
    expect(elicitationModes(both, '2025-11-25')).toEqual({ form: true, url: true });
    expect(elicitationModes(both, '2026-07-28')).toEqual({ form: true, url: true });
  });
});
