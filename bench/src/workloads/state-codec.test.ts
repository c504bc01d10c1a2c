import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmRoundTrip, measureStateCodecs } from './state-codec.js';

describe('the state codec workload (c)', () => {
  it('times the whole AES-256-GCM round trip: what it opens is what it sealed, under a new IV each time', () => {
    const key = randomBytes(32);
    const iv = Buffer.alloc(12);
    const plaintext = Buffer.from('["callId",1700000000,3,"AAAA",[["a"]]]');
    expect(aesGcmRoundTrip(key, iv, plaintext)).toEqual(plaintext);
    const first = Buffer.from(iv);
    aesGcmRoundTrip(key, iv, plaintext);
    expect(iv.equals(first)).toBe(false);
  });

  it("gives each flow length a median inside its windows' quartiles, for every codec", async () => {
    const rows = await measureStateCodecs({ flows: [1, 5], iterations: 2, repeats: 1 });
    expect(rows.map((row) => row.questions)).toEqual([1, 5]);
    for (const row of rows) {
      const [low, high] = row.parleySpreadUs!;
      expect(low).toBeLessThanOrEqual(row.parleyUs);
      expect(row.parleyUs).toBeLessThanOrEqual(high);
      expect(row.sdkUs).toBeGreaterThan(0);
      expect(row.aesGcmUs).toBeGreaterThan(0);
    }
  });
});
