import { describe, expect, it } from 'vitest';
import { parseChallenges } from './www-authenticate.js';

describe('parseChallenges', () => {
  it('reads every challenge of a header with its parameters, schemes and names lower-cased', () => {
    expect(
      parseChallenges(
        'Bearer resource_metadata="https://a.example/.well-known/x", Scope="a b", DPoP algs="ES256 PS256", error=use_dpop_nonce',
      ),
    ).toEqual([
      { scheme: 'bearer', params: { resource_metadata: 'https://a.example/.well-known/x', scope: 'a b' } },
      { scheme: 'dpop', params: { algs: 'ES256 PS256', error: 'use_dpop_nonce' } },
    ]);
  });

  it('keeps commas and escaped quotes inside quoted values', () => {
    expect(parseChallenges('DPoP error_description="a, \\"b\\"", error="invalid_dpop_proof"')).toEqual([
      { scheme: 'dpop', params: { error_description: 'a, "b"', error: 'invalid_dpop_proof' } },
    ]);
  });

  it('reads a scheme without parameters, and nothing from no header or an oversized one', () => {
    expect(parseChallenges('DPoP')).toEqual([{ scheme: 'dpop', params: {} }]);
    expect(parseChallenges(null)).toEqual([]);
    expect(parseChallenges(`Bearer x="${'a'.repeat(9000)}"`)).toEqual([]);
  });

  it('stops at a fault and keeps what it read before it', () => {
    expect(parseChallenges('Bearer realm="unterminated')).toEqual([{ scheme: 'bearer', params: {} }]);
  });
});
