import { describe, expect, it } from 'vitest';
import { ResumeTokens } from './resume-tokens.js';

const parked = (token: unknown) => ({ content: [], _meta: { 'dev.parley/resume': token } });

describe('ResumeTokens', () => {
  it('carries a parked call’s token back on the same call only, whatever the order of its arguments', () => {
    const tokens = new ResumeTokens();
    const params = { name: 'book', arguments: { boxes: 2, city: 'Lyon' } };
    tokens.remember('tools/call', params, parked('t'.repeat(32)));
    const again = tokens.attach('tools/call', { arguments: { city: 'Lyon', boxes: 2 }, name: 'book' });
    expect(again._meta).toEqual({ 'dev.parley/resume': 't'.repeat(32) });
    expect(
      tokens.attach('tools/call', { name: 'book', arguments: { boxes: 3, city: 'Lyon' } }),
    ).not.toHaveProperty('_meta');
    expect(tokens.attach('prompts/get', params)).not.toHaveProperty('_meta');
  });

  it('forgets the token once the call ends, and ignores anything that is not one', () => {
    const tokens = new ResumeTokens();
    const params = { uri: 'desk://notes' };
    tokens.remember('resources/read', params, parked('x'.repeat(32)));
    tokens.remember('resources/read', params, { contents: [] });
    expect(tokens.attach('resources/read', params)).toBe(params);
    for (const junk of [42, 'y'.repeat(65), null]) {
      tokens.remember('resources/read', params, parked(junk));
      expect(tokens.attach('resources/read', params)).toBe(params);
    }
  });

  it('keeps the newest 256 calls', () => {
    const tokens = new ResumeTokens();
    for (let index = 0; index < 300; index++)
      tokens.remember('tools/call', { name: `t${index}` }, parked(`k${index}`));
    expect(tokens.attach('tools/call', { name: 't0' })).not.toHaveProperty('_meta');
    expect(tokens.attach('tools/call', { name: 't299' })._meta).toEqual({ 'dev.parley/resume': 'k299' });
  });
});
