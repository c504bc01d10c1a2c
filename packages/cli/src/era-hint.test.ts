import { describe, expect, it } from 'vitest';
import { needsHandshakeEra } from './era-hint.js';

const FASTMCP = 'elicitation via server-initiated requests is unavailable on 2026-07-28 connections.';

describe('needsHandshakeEra', () => {
  it('reads a failed result that says the tool cannot work on 2026-07-28, on a modern connection only', () => {
    expect(needsHandshakeEra({ era: 'modern' }, true, FASTMCP)).toBe(true);
    expect(needsHandshakeEra({ era: 'handshake' }, true, FASTMCP)).toBe(false);
    expect(needsHandshakeEra({ era: 'modern' }, false, FASTMCP)).toBe(false);
    expect(needsHandshakeEra({ era: 'modern' }, true, 'The order 2026-07-28 was not found')).toBe(false);
    expect(needsHandshakeEra({ era: 'modern' }, true, 'disk full')).toBe(false);
    const sdk =
      'python-sdk-peer answered with error -32600 during tool "profile": Cannot send \'elicitation/create\': this transport context has no back-channel for server-initiated requests.';
    expect(needsHandshakeEra({ era: 'modern' }, true, sdk)).toBe(true);
  });
});
