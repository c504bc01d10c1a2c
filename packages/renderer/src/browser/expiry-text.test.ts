import { describe, expect, it } from 'vitest';
import { expiryText } from './expiry-text.js';

const NOW = Date.parse('2026-07-28T10:00:00Z');

describe('expiryText', () => {
  it('gives the time alone when the link ends today, on the person’s clock', () => {
    expect(expiryText(NOW + 15 * 60_000, NOW, 'en-GB', 'Europe/Paris')).toBe('This link works until 12:15.');
    expect(expiryText(NOW + 15 * 60_000, NOW, 'en-US', 'America/New_York')).toBe(
      'This link works until 6:15 AM.',
    );
  });

  it('adds the date when the link ends on another day where the person is', () => {
    // 23:30 in Paris is already the next day in Tokyo.
    const late = Date.parse('2026-07-28T21:30:00Z');
    expect(expiryText(late, NOW, 'en-GB', 'Europe/Paris')).toBe('This link works until 23:30.');
    expect(expiryText(late, NOW, 'en-GB', 'Asia/Tokyo')).toBe('This link works until 29 Jul 2026, 06:30.');
  });
});
