import { KeyRing } from '@parley/core/seal';
import { describe, expect, it } from 'vitest';
import { bindingBytes, type StateBinding } from './binding.js';
import { nodeAead } from './node-aead.js';
import type { RoundState } from './round-state.js';
import { StateCodec, StateTooLargeError } from './state-codec.js';

const secret = (fill: number) => new Uint8Array(32).fill(fill);
const binding: StateBinding = {
  server: 'shop',
  method: 'tools/call',
  target: 'book',
  args: { a: 1, b: [1, 2] },
  principal: 'alice',
};
const state: RoundState = {
  callId: 'call-1',
  rounds: 2,
  journal: [
    [1234, ['Paris']],
    [99, 'd'],
  ],
  pending: { fingerprint: 7, tries: 1, partial: { date: ['2026-12-01'] } },
};

async function ring(keys: [string, number][] = [['k1', 1]]) {
  return KeyRing.create(
    keys.map(([id, fill]) => ({ id, secret: secret(fill) })),
    { backend: nodeAead },
  );
}

/** Seals `payload` (a round state's JSON layout, written out by hand) as the server's codec would. */
async function sealLayout(payload: unknown[]): Promise<string> {
  return (await ring()).seal(new TextEncoder().encode(JSON.stringify(payload)), bindingBytes(binding));
}

async function codec(
  options: { keys?: [string, number][]; now?: () => number; ttl?: number; maxChars?: number } = {},
) {
  return new StateCodec(await ring(options.keys), {
    ttlSeconds: options.ttl ?? 600,
    maxChars: options.maxChars ?? 16_384,
    clockSkewSeconds: 30,
    ...(options.now && { now: options.now }),
  });
}

describe('StateCodec', () => {
  it('round-trips a state bound to its call, and hides its contents', async () => {
    const c = await codec();
    const token = await c.seal(state, bindingBytes(binding));
    expect(token).not.toMatch(/Paris|alice|book/);
    expect(await c.open(token, bindingBytes(binding))).toEqual({ ok: true, state });
  });

  it('binds the arguments whatever their key order', async () => {
    const c = await codec();
    const token = await c.seal(state, bindingBytes(binding));
    const reordered = { ...binding, args: { b: [1, 2], a: 1 } };
    expect((await c.open(token, bindingBytes(reordered))).ok).toBe(true);
  });

  it.each<[string, Partial<StateBinding>]>([
    ['another server', { server: 'other-shop' }],
    ['another method', { method: 'prompts/get' }],
    ['another tool', { target: 'cancel' }],
    ['other arguments', { args: { a: 2, b: [1, 2] } }],
    ['another user', { principal: 'mallory' }],
    ['no user', { principal: undefined }],
  ])('refuses a state presented for %s', async (_label, change) => {
    const c = await codec();
    const token = await c.seal(state, bindingBytes(binding));
    expect(await c.open(token, bindingBytes({ ...binding, ...change }))).toEqual({
      ok: false,
      reason: 'unauthentic',
    });
  });

  it('refuses an expired state and one claiming a later expiry than the server issues', async () => {
    let now = 1_000_000_000_000;
    const c = await codec({ now: () => now, ttl: 60 });
    const token = await c.seal(state, bindingBytes(binding));
    now += 60_000 + 29_000; // inside ttl + skew
    expect((await c.open(token, bindingBytes(binding))).ok).toBe(true);
    now += 2_000;
    expect(await c.open(token, bindingBytes(binding))).toEqual({ ok: false, reason: 'expired' });

    const future = await codec({ now: () => 2_000_000_000_000, ttl: 60 });
    const fromTheFuture = await future.seal(state, bindingBytes(binding));
    const present = await codec({ now: () => 1_000_000_000_000, ttl: 60 });
    expect(await present.open(fromTheFuture, bindingBytes(binding))).toEqual({
      ok: false,
      reason: 'from-the-future',
    });
  });

  it('opens with the previous key of the ring and refuses a retired key', async () => {
    const old = await codec({ keys: [['k1', 1]] });
    const token = await old.seal(state, bindingBytes(binding));
    const rotated = await codec({
      keys: [
        ['k2', 2],
        ['k1', 1],
      ],
    });
    expect((await rotated.open(token, bindingBytes(binding))).ok).toBe(true);
    const retired = await codec({ keys: [['k2', 2]] });
    expect(await retired.open(token, bindingBytes(binding))).toEqual({ ok: false, reason: 'unknown-key' });
  });

  it('refuses tampered, truncated, extended, re-encoded and non-string states', async () => {
    const c = await codec();
    const token = await c.seal(state, bindingBytes(binding));
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const bad of [
      flipped,
      token.slice(0, -4),
      `${token}AAAA`,
      `${token}-TAMPERED`,
      `${token}==`,
      '',
      'not a token',
    ]) {
      expect((await c.open(bad, bindingBytes(binding))).ok).toBe(false);
    }
    for (const bad of [null, 42, {}, ['x']])
      expect(await c.open(bad, bindingBytes(binding))).toEqual({ ok: false, reason: 'not-a-string' });
    expect(await c.open('A'.repeat(20_000), bindingBytes(binding))).toEqual({
      ok: false,
      reason: 'too-large',
    });
  });

  it('tells the author to keep large data server-side when a state grows past the limit', async () => {
    const c = await codec({ maxChars: 300 });
    const noise = Array.from({ length: 300 }, (_, i) => ((i * 7919) % 65_521).toString(36)).join('');
    const big: RoundState = { callId: 'c', rounds: 1, journal: [[1, noise]], pending: undefined };
    await expect(c.seal(big, bindingBytes(binding))).rejects.toThrow(StateTooLargeError);
    await expect(c.seal(big, bindingBytes(binding))).rejects.toThrow(/keep large data server-side/);
  });

  it('keeps a one-question state small', async () => {
    const c = await codec();
    const token = await c.seal(
      {
        callId: 'AAAAAAAAAAAAAAAAAAAAAA',
        rounds: 1,
        journal: [],
        pending: { fingerprint: 16_000_000, tries: 0 },
      },
      bindingBytes(binding),
    );
    expect(token.length).toBeLessThan(200); // the issue's budget: 200 bytes plus the answers' own size
  });

  it('keeps a long journal within 200 bytes plus the answers, and reads it back', async () => {
    const c = await codec();
    const answers = Array.from({ length: 20 }, (_, i) => ({ answer: `answer ${i + 1}` }));
    const grown: RoundState = {
      callId: 'AAAAAAAAAAAAAAAAAAAAAA',
      rounds: 20,
      journal: answers.map((answer, i) => [3_000_000 + i, [answer.answer]] as const),
      pending: { fingerprint: 7, tries: 0 },
    };
    const token = await c.seal(grown, bindingBytes(binding));
    const answerBytes = answers.reduce((sum, answer) => sum + JSON.stringify(answer).length, 0);
    expect(token.length).toBeLessThan(200 + answerBytes);
    expect(await c.open(token, bindingBytes(binding))).toEqual({ ok: true, state: grown });
  });
  it('carries the count of notifications sent, compactly, and leaves it out while it is 0', async () => {
    const c = await codec();
    const counted: RoundState = { ...state, guard: { asked: 5, data: ['a'] }, notified: 6 };
    const token = await c.seal(counted, bindingBytes(binding));
    expect(await c.open(token, bindingBytes(binding))).toEqual({ ok: true, state: counted });
    const plain = await c.seal({ ...counted, notified: 0 }, bindingBytes(binding));
    expect(token.length - plain.length).toBeLessThanOrEqual(4); // ",6" and base64 rounding
    const { notified: _, ...withoutCount } = counted;
    expect(await c.open(plain, bindingBytes(binding))).toEqual({ ok: true, state: withoutCount });
    // Without pending or guard, their places are held by null.
    const bare: RoundState = { callId: 'c', rounds: 1, journal: [], pending: undefined, notified: 2 };
    expect(await c.open(await c.seal(bare, bindingBytes(binding)), bindingBytes(binding))).toEqual({
      ok: true,
      state: bare,
    });
  });

  it('opens states sealed before the count existed (the 5- to 7-element layouts)', async () => {
    const c = await codec();
    const expires = Math.floor(Date.now() / 1000) + 60;
    const fingerprints = Buffer.from([0, 0, 9]).toString('base64url');
    const layouts: [unknown[], RoundState][] = [
      [['c', expires, 0, '', []], { callId: 'c', rounds: 0, journal: [], pending: undefined }],
      [
        ['c', expires, 1, fingerprints, [['x']], [7, 0]],
        { callId: 'c', rounds: 1, journal: [[9, ['x']]], pending: { fingerprint: 7, tries: 0 } },
      ],
      [
        ['c', expires, 2, '', [], null, [5, { step: 2 }]],
        { callId: 'c', rounds: 2, journal: [], pending: undefined, guard: { asked: 5, data: { step: 2 } } },
      ],
    ];
    for (const [layout, opened] of layouts)
      expect(await c.open(await sealLayout(layout), bindingBytes(binding))).toEqual({
        ok: true,
        state: opened,
      });
  });

  it('refuses a count that is not a count, and opens an absurd one as it is', async () => {
    const c = await codec();
    const expires = Math.floor(Date.now() / 1000) + 60;
    for (const count of [-1, 1.5, '3', null, 2 ** 60])
      expect(
        await c.open(await sealLayout(['c', expires, 1, '', [], null, null, count]), bindingBytes(binding)),
      ).toEqual({ ok: false, reason: 'bad-payload' });
    const huge = await sealLayout(['c', expires, 1, '', [], null, null, Number.MAX_SAFE_INTEGER]);
    expect(await c.open(huge, bindingBytes(binding))).toMatchObject({
      ok: true,
      state: { notified: Number.MAX_SAFE_INTEGER },
    });
  });
});
