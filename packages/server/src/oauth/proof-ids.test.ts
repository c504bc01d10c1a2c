import { describe, expect, it } from 'vitest';
import { ProofIds } from './proof-ids.js';

describe('ProofIds, the DPoP replay cache', () => {
  it('at its default size, refuses new proofs once full and still knows every proof that could pass', () => {
    // The attack of issue 41 (finding 6): 100,000 proofs of an attacker's own keys, then a captured
    // proof of alice's replayed inside its window. The cache forgot it; now it refuses the flood.
    const ids = new ProofIds({ maxPerKey: 6_000, max: 100_000 });
    const now = 1_800_000_000;
    expect(ids.remember('alice', 'captured', now + 301, now)).toBe('new');
    const verdicts = new Map<string, number>();
    for (let key = 0; key < 17; key++) {
      for (let n = 0; n < 6_001; n++) {
        const verdict = ids.remember(`mallory${key}`, `p${n}`, now + 301, now);
        verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
      }
    }
    expect(ids.size).toBe(100_000);
    expect(verdicts.get('new')).toBe(99_999);
    expect(verdicts.get('full')).toBeGreaterThan(0);
    expect(verdicts.get('key-busy')).toBeGreaterThan(0);
    expect(ids.remember('alice', 'captured', now + 301, now + 100)).toBe('replayed');
    expect(ids.remember('alice', 'fresh', now + 401, now + 100)).toBe('full');
  });

  it('forgets an id only once its proof could no longer pass, and then makes room', () => {
    const ids = new ProofIds({ maxPerKey: 2, max: 3 });
    const now = 1_000;
    expect(ids.remember('k', 'a', now + 10, now)).toBe('new');
    expect(ids.remember('k', 'b', now + 20, now)).toBe('new');
    expect(ids.remember('k', 'c', now + 20, now)).toBe('key-busy');
    expect(ids.remember('j', 'a', now + 20, now)).toBe('new');
    expect(ids.remember('i', 'a', now + 20, now)).toBe('full');
    expect(ids.retryAfter(now)).toBe(10);
    expect(ids.remember('k', 'a', now + 30, now + 9)).toBe('replayed');
    expect(ids.remember('k', 'c', now + 30, now + 10)).toBe('new');
    expect(ids.remember('k', 'a', now + 30, now + 11)).toBe('key-busy');
  });
});
