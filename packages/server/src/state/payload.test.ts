import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePayload, encodePayload } from './payload.js';
import type { JournalEntry, RoundState } from './round-state.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const layout = (payload: unknown[]) => Buffer.from(JSON.stringify(payload), 'utf8');

describe('the payload of a sealed round state', () => {
  it('keeps the byte layout states were sealed with before (fingerprints: base64url of 3 bytes each)', () => {
    const state: RoundState = {
      callId: 'AAAAAAAAAAAAAAAA',
      rounds: 3,
      journal: [
        [0, ['a']],
        [0xffffff, { x: 1 }],
        [0x123456, null],
        [2_000_000_000, 'é✓'],
      ],
      pending: { fingerprint: 7, tries: 1 },
    };
    // The bytes the Buffer-based packing wrote for this state (before fingerprints were packed as text).
    expect(text(encodePayload(state, 1_700_000_000))).toBe(
      '["AAAAAAAAAAAAAAAA",1700000000,3,"AAAA____EjRWNZQA",[["a"],{"x":1},null,"é✓"],[7,1]]',
    );
    expect(text(encodePayload({ callId: 'c', rounds: 0, journal: [], pending: undefined }, 5))).toBe(
      '["c",5,0,"",[]]',
    );
    expect(Buffer.from([0x12, 0x34, 0x56, 0x77, 0x35, 0x94]).toString('base64url')).toBe('EjRWdzWU');
    expect(decodePayload(layout(['c', 5, 1, 'EjRWdzWU', [1, 2]]), 1024)?.state.journal).toEqual([
      [0x123456, 1],
      [0x773594, 2],
    ]);
  });

  it('reads back every journal it writes, with each fingerprint cut to its 24 bits', () => {
    const entry = fc.tuple(fc.nat(), fc.oneof(fc.string(), fc.integer(), fc.constant(null)));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.nat(), (entries, expires) => {
        const journal: JournalEntry[] = entries.map(([fingerprint, result]) => [fingerprint, result]);
        const decoded = decodePayload(
          encodePayload({ callId: 'c', rounds: journal.length, journal, pending: undefined }, expires),
          1 << 20,
        );
        expect(decoded?.expires).toBe(expires);
        expect(decoded?.state.journal).toEqual(
          journal.map(([fingerprint, result]) => [fingerprint & 0xffffff, result]),
        );
      }),
    );
  });

  it('refuses fingerprints that are not four base64url characters per answer', () => {
    for (const packed of ['AAA', 'AAAAA', 'AA=A', 'AA+A', 'AA/A', 'AA A', 'AAéA', 'AAAA'.repeat(2)])
      expect(decodePayload(layout(['c', 5, 1, packed, [['x']]]), 1024), packed).toBeUndefined();
    expect(decodePayload(layout(['c', 5, 1, '____', [['x']]]), 1024)?.state.journal).toEqual([
      [0xffffff, ['x']],
    ]);
  });
});
