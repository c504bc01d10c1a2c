import { describe, expect, it } from 'vitest';
import { scriptsIn, suspiciousScriptMix } from './scripts.js';

describe('scripts of a label', () => {
  it('ignores digits and hyphens, which every script shares', () => {
    expect(scriptsIn('abc-123')).toEqual(['Latin']);
    expect(scriptsIn('123-456')).toEqual([]);
  });

  it('names scripts in order of first appearance', () => {
    expect(scriptsIn('\u0430p\u03c1le')).toEqual(['Cyrillic', 'Latin', 'Greek']);
  });

  it('groups letters of unnamed scripts as another script', () => {
    expect(scriptsIn('a\u1780')).toEqual(['Latin', 'another script']); // Khmer
  });
});

describe('suspiciousScriptMix', () => {
  it.each([
    ['paypal'],
    ['\u043f\u0440\u0438\u043c\u0435\u0440'], // one script
    ['abc\u30c6\u30b9\u30c8'], // Latin + Katakana (Japanese)
    ['\u4f8b\u3048'], // Han + Hiragana
    ['abc\u4e2d\u6587'], // Latin + Han
    ['\u4e2d\u6587\u3105'], // Han + Bopomofo
    ['abc\ud55c\uad6d'], // Latin + Hangul
  ])('%s is a normal mix', (label) => {
    expect(suspiciousScriptMix(label)).toBeNull();
  });

  it.each([
    ['\u0430pple', ['Cyrillic', 'Latin']],
    ['p\u03b1ypal', ['Latin', 'Greek']],
    ['\u0430\u03c1', ['Cyrillic', 'Greek']],
    ['\u30c6\ud55c', ['Katakana', 'Hangul']], // Japanese kana with Korean is not a normal mix
  ])('%s mixes %j', (label, scripts) => {
    expect(suspiciousScriptMix(label)).toEqual(scripts);
  });
});
