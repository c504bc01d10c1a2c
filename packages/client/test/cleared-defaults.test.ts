import { connect, type ElicitationUI, scripted } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { PROFILE_ANSWERS, stdioServer } from './support.js';

// The fixture's `profile` form has `subscribe` (optional, default true) and `size` (required, default
// 'm'). The person answered everything else and cleared both. Keyed on the modern era, by message
// on the handshake era (which has no keys).
const ANSWERS = { profile: PROFILE_ANSWERS, 'Tell us about yourself': PROFILE_ANSWERS };

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((block) => block.text ?? '').join('');

/** What the server received for the profile form, answered by `ui`. */
async function sentProfile(ui: ElicitationUI, era: 'modern' | 'handshake'): Promise<Record<string, unknown>> {
  const client = await connect(stdioServer(), { ui, era });
  try {
    return JSON.parse(textOf(await client.callTool('profile')));
  } finally {
    await client.close();
  }
}

describe.each(['modern', 'handshake'] as const)('defaults the person cleared, on the %s era', (era) => {
  it('are sent empty where the UI showed them pre-filled (a required one is still filled)', async () => {
    const ui: ElicitationUI = { ...scripted(ANSWERS), defaults: 'prefilled' };
    const sent = await sentProfile(ui, era);
    expect(Object.hasOwn(sent, 'subscribe')).toBe(false);
    expect(sent.size).toBe('m');
    expect(sent.name).toBe('Ada');
  });

  it('are filled in where the UI did not say it pre-fills them, as before', async () => {
    expect(await sentProfile(scripted(ANSWERS), era)).toMatchObject({ subscribe: true, size: 'm' });
    const notShown: ElicitationUI = { ...scripted(ANSWERS), defaults: 'not-prefilled' };
    expect(await sentProfile(notShown, era)).toMatchObject({ subscribe: true, size: 'm' });
  });
});
