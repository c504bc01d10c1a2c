import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.js';
import { KeyRing } from './key-ring.js';

const enc = new TextEncoder();
const secret = (fill: number) => new Uint8Array(32).fill(fill);
const aad = enc.encode('server\0tools/call\0book\0{}');

describe('KeyRing', () => {
  it('seals with the first key and opens with the same aad', async () => {
    const ring = await KeyRing.create([
      { id: 'k2', secret: secret(2) },
      { id: 'k1', secret: secret(1) },
    ]);
    const token = await ring.seal(enc.encode('hello'), aad);
    const opened = await ring.open(token, aad);
    expect(opened).toEqual({ ok: true, plaintext: enc.encode('hello'), keyId: 'k2' });
    expect(token).not.toContain('hello');
  });

  it('opens a token sealed by the previous key after rotation, and refuses it once the key is retired', async () => {
    const before = await KeyRing.create([{ id: 'k1', secret: secret(1) }]);
    const token = await before.seal(enc.encode('in flight'), aad);
    const rotated = await KeyRing.create([
      { id: 'k2', secret: secret(2) },
      { id: 'k1', secret: secret(1) },
    ]);
    expect(await rotated.open(token, aad)).toMatchObject({ ok: true, keyId: 'k1' });
    const retired = await KeyRing.create([{ id: 'k2', secret: secret(2) }]);
    expect(await retired.open(token, aad)).toEqual({ ok: false, reason: 'unknown-key' });
  });

  it('finds the key a token names among ids that share a prefix or a length, and no other', async () => {
    const ids = ['k1', 'k10', 'k2', 'k'];
    const sealers = await Promise.all(ids.map((id, i) => KeyRing.create([{ id, secret: secret(10 + i) }])));
    const ring = await KeyRing.create(ids.map((id, i) => ({ id, secret: secret(10 + i) })));
    for (const [i, sealer] of sealers.entries())
      expect(await ring.open(await sealer.seal(enc.encode(ids[i]!), aad), aad)).toEqual({
        ok: true,
        plaintext: enc.encode(ids[i]!),
        keyId: ids[i],
      });
    for (const stranger of ['k3', 'k11', 'K1', 'kk'])
      expect(
        await ring.open(
          await (await KeyRing.create([{ id: stranger, secret: secret(10) }])).seal(enc.encode('x'), aad),
          aad,
        ),
        stranger,
      ).toEqual({ ok: false, reason: 'unknown-key' });
  });

  it('refuses a token presented with other associated data', async () => {
    const ring = await KeyRing.create([{ id: 'k', secret: secret(7) }]);
    const token = await ring.seal(enc.encode('x'), aad);
    expect(await ring.open(token, enc.encode('server\0tools/call\0other\0{}'))).toEqual({
      ok: false,
      reason: 'unauthentic',
    });
  });

  it('refuses a token from a ring with the same id but another secret', async () => {
    const a = await KeyRing.create([{ id: 'k', secret: secret(1) }]);
    const b = await KeyRing.create([{ id: 'k', secret: secret(9) }]);
    expect(await b.open(await a.seal(enc.encode('x'), aad), aad)).toEqual({
      ok: false,
      reason: 'unauthentic',
    });
  });

  it('never opens a mutated token and never throws', async () => {
    const ring = await KeyRing.create([{ id: 'k', secret: secret(3) }]);
    const token = await ring.seal(enc.encode('{"j":[]}'), aad);
    const bytes = fromBase64Url(token)!;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            kind: fc.constant('flip'),
            at: fc.nat(bytes.length - 1),
            bit: fc.integer({ min: 0, max: 7 }),
          }),
          fc.record({ kind: fc.constant('truncate'), at: fc.nat(bytes.length - 1), bit: fc.constant(0) }),
          fc.record({ kind: fc.constant('extend'), at: fc.nat(255), bit: fc.constant(0) }),
        ),
        async ({ kind, at, bit }) => {
          let mutated: Uint8Array;
          if (kind === 'flip') {
            mutated = bytes.slice();
            mutated[at] = mutated[at]! ^ (1 << bit);
          } else if (kind === 'truncate') mutated = bytes.slice(0, at);
          else mutated = Uint8Array.from([...bytes, at]);
          const result = await ring.open(toBase64Url(mutated), aad);
          expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
    for (const text of ['', '!', `${token}=`, `+${token.slice(1)}`, ` ${token}`, token.slice(1)]) {
      expect((await ring.open(text, aad)).ok).toBe(false);
    }
  });

  it('uses a fresh IV for every seal', async () => {
    const ring = await KeyRing.create([{ id: 'k', secret: secret(4) }]);
    const tokens = new Set(
      await Promise.all(Array.from({ length: 50 }, () => ring.seal(enc.encode('same'), aad))),
    );
    expect(tokens.size).toBe(50);
  });

  it('parses configuration text and refuses weak or malformed keys with a steer', async () => {
    const b64 = btoa(String.fromCharCode(...secret(5)));
    expect(KeyRing.parse(` new:${b64} , old:${b64}`)).toEqual([
      { id: 'new', secret: b64 },
      { id: 'old', secret: b64 },
    ]);
    expect(() => KeyRing.parse('nocolon')).toThrow(/id:base64secret/);
    await expect(KeyRing.create([{ id: 'k', secret: 'c2hvcnQ=' }])).rejects.toThrow(/32 bytes.*openssl rand/);
    await expect(KeyRing.create([{ id: 'bad id', secret: secret(1) }])).rejects.toThrow(/not valid/);
    await expect(
      KeyRing.create([
        { id: 'a', secret: secret(1) },
        { id: 'a', secret: secret(2) },
      ]),
    ).rejects.toThrow(/twice/);
    await expect(KeyRing.create([])).rejects.toThrow(/at least one key/);
    const ring = await KeyRing.create(KeyRing.parse(`cfg:${b64}`));
    expect(ring.ids).toEqual(['cfg']);
    expect(ring.ephemeral).toBe(false);
  });

  it('makes an ephemeral ring that opens only its own tokens', async () => {
    const a = await KeyRing.ephemeral();
    const b = await KeyRing.ephemeral();
    expect(a.ephemeral).toBe(true);
    const token = await a.seal(enc.encode('x'), aad);
    expect((await a.open(token, aad)).ok).toBe(true);
    expect(await b.open(token, aad)).toEqual({ ok: false, reason: 'unauthentic' });
  });
});

describe('base64url', () => {
  it('round-trips any bytes and rejects non-canonical text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
    );
    expect(fromBase64Url('AB')).toBeUndefined(); // stray bits in the last character
    expect(fromBase64Url('A')).toBeUndefined();
    expect(fromBase64Url('AA==')).toBeUndefined();
    expect(fromBase64Url('A+A/')).toBeUndefined();
  });
});
