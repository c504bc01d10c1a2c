import { describe, expect, it } from 'vitest';
import { App } from './app.js';

describe('createServer sessions options', () => {
  it('starts session ids with the replica prefix, and names the fix for a bad one', () => {
    expect(new App({ name: 'n', version: '1', sessions: { idPrefix: 'r-1_a' } }).sessionIdPrefix).toBe(
      'r-1_a.',
    );
    expect(new App({ name: 'n', version: '1' }).sessionIdPrefix).toBe('');
    for (const bad of ['', 'r 1', 'r.1', 'x'.repeat(33)]) {
      expect(() => new App({ name: 'n', version: '1', sessions: { idPrefix: bad } })).toThrow(
        /sessions\.idPrefix takes 1 to 32 letters, digits, '_' or '-'/,
      );
    }
  });
});
