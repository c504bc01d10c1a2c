import { describe, expect, it } from 'vitest';
import { capabilitiesFor } from './capabilities.js';
import type { ElicitationUI } from './types.js';

const ui = (modes: ElicitationUI['modes'], extra: Partial<ElicitationUI> = {}): ElicitationUI => ({
  modes,
  form: async () => ({ action: 'cancel' }),
  url: async () => ({ action: 'cancel' }),
  ...extra,
});

describe('capabilitiesFor', () => {
  it('declares exactly the modes the host shows, and that it carries resume tokens when it opens no URL', () => {
    const resume = { extensions: { 'dev.parley/resume': {} } };
    expect(capabilitiesFor(ui({ form: true, url: true }))).toEqual({ elicitation: { form: {}, url: {} } });
    expect(capabilitiesFor(ui({ form: true, url: false }))).toEqual({ elicitation: { form: {} }, ...resume });
    expect(capabilitiesFor(ui({ form: false, url: true }))).toEqual({ elicitation: { url: {} } });
    expect(capabilitiesFor(ui({ form: false, url: false }))).toEqual(resume);
  });

  it('declares sampling and roots only for hosts that implement them', () => {
    const full = ui(
      { form: true, url: false },
      {
        sampling: async () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
        roots: async () => ({ roots: [] }),
      },
    );
    expect(capabilitiesFor(full)).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: {},
      extensions: { 'dev.parley/resume': {} },
    });
  });
});
