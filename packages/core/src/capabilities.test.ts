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
