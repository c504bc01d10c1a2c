import { KeyRing } from '@parley/core';
import type { BusSeal } from '@parley/server/redis';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveBusSeal } from './live-bus.js';
import { type LiveMessage, resumeOnWire } from './live-wire.js';

const secret = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const CHANNEL = 'parley:gateway:live:gw1-1';
const HANDLE = `gw1-1.${'a'.repeat(43)}`;
const answers = { q1: { result: { action: 'accept', content: { boxes: 2, note: 'ring the bell' } } } };
const resume = { handle: HANDLE, owner: 'alice', round: 1, answers, holdMs: 25_000 };
const header = { t: 'resume', id: 'm1', from: 'gw2-1' };
const body = () => ({ until: Date.now() + 10_000, resume: resumeOnWire(resume) });

const ring = (...keys: [string, number][]) =>
  liveBusSeal(keys.map(([id, fill]) => ({ id, secret: secret(fill) })));
const droppedBy = async (seal: BusSeal<LiveMessage>, text: string, channel = CHANNEL, max = 1e6) => {
  const read = await seal.open(channel, text, max);
  return 'dropped' in read ? read.dropped : undefined;
};
const NOT_OPEN =
  'a message that does not open with the fleet keys (forged, altered, or meant for another replica)';

describe('the seal on the gateway fleet bus', () => {
  it('carries a message whole, its content unreadable on the channel', async () => {
    const seal = await ring(['k1', 1]);
    const { text, chars } = await seal.seal(CHANNEL, header, body());
    expect(text).toMatch(/^pb1\.resume\.m1\.gw2-1\.[A-Za-z0-9_-]+$/);
    for (const clear of ['alice', 'boxes', 'ring the bell', 'accept', HANDLE.slice(6)])
      expect(text).not.toContain(clear);
    expect(chars).toBe(JSON.stringify({ ...body(), ...header }).length);
    expect(await seal.open(CHANNEL, text, 1e6)).toEqual({
      message: { ...header, until: expect.any(Number), resume },
    });
  });

  it('drops what was not sealed with the fleet keys: plain messages and forgeries', async () => {
    const seal = await ring(['k1', 1]);
    const plain = JSON.stringify({ ...header, ...body() });
    expect(await droppedBy(seal, plain)).toBe('a message that is not sealed for the gateway fleet bus');
    expect(await droppedBy(seal, `pb1.resume.m1.gw2-1.${Buffer.from(plain).toString('base64url')}`)).toBe(
      NOT_OPEN,
    );
    // The same key id with another secret: someone who guessed the format, not the key.
    const forger = await ring(['k1', 2]);
    expect(await droppedBy(seal, (await forger.seal(CHANNEL, header, body())).text)).toBe(NOT_OPEN);
    const stranger = await ring(['k9', 1]);
    expect(await droppedBy(seal, (await stranger.seal(CHANNEL, header, body())).text)).toBe(
      'a message sealed with a key this replica does not have (is fleet.stateKeys the same on every replica?)',
    );
  });

  it('uses keys of its own, derived from the state keys: a token sealed with the state ring does not open', async () => {
    const seal = await ring(['k1', 1]);
    const state = await KeyRing.create([{ id: 'k1', secret: secret(1) }]);
    const associated = new TextEncoder().encode(
      JSON.stringify(['parley-gateway-bus/1', CHANNEL, header.t, header.id, header.from]),
    );
    const json = new TextEncoder().encode(JSON.stringify({ ...body(), ...header }));
    const token = await state.seal(json, associated);
    expect(await droppedBy(seal, `pb1.resume.m1.gw2-1.${token}`)).toBe(NOT_OPEN);
  });

  it('drops a message altered anywhere, or given another channel, kind, id or sender', async () => {
    const seal = await ring(['k1', 1]);
    const { text } = await seal.seal(CHANNEL, header, body());
    const token = text.slice(text.lastIndexOf('.') + 1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.nat(token.length - 1), fc.nat(63), async (at, pick) => {
        const swapped = alphabet[pick] === token[at] ? alphabet[(pick + 1) % 64]! : alphabet[pick]!;
        const altered = `${text.slice(0, text.length - token.length + at)}${swapped}${text.slice(text.length - token.length + at + 1)}`;
        // Whichever byte it hits (version, key id, IV, ciphertext, tag), it is dropped, never read.
        expect(await droppedBy(seal, altered)).toMatch(
          /^a message (that does not open|that is not sealed|sealed with a key)/,
        );
      }),
      { numRuns: 150 },
    );
    expect(await droppedBy(seal, text.slice(0, -1))).toBe(NOT_OPEN);
    expect(await droppedBy(seal, text, 'parley:gateway:live:gw3-1')).toBe(NOT_OPEN);
    expect(await droppedBy(seal, text.replace('pb1.resume.', 'pb1.cancel.'))).toBe(NOT_OPEN);
    expect(await droppedBy(seal, text.replace('.m1.', '.m2.'))).toBe(NOT_OPEN);
    expect(await droppedBy(seal, text.replace('.gw2-1.', '.gw3-1.'))).toBe(NOT_OPEN);
    expect(await droppedBy(seal, text.replace('pb1.', 'pb2.'))).toBe(
      'a message that is not sealed for the gateway fleet bus',
    );
  });

  it('drops what is too large before opening it, and what opens larger than allowed', async () => {
    const seal = await ring(['k1', 1]);
    const { text, chars } = await seal.seal(CHANNEL, header, body());
    expect(await droppedBy(seal, `${text}${'A'.repeat(10_000)}`, CHANNEL, 100)).toMatch(
      /^a sealed message of \d+ characters \(at most \d+\)$/,
    );
    expect(await droppedBy(seal, text, CHANNEL, chars - 1)).toBe(
      `a message of ${chars} characters (at most ${chars - 1})`,
    );
    expect(await droppedBy(seal, text, CHANNEL, chars)).toBeUndefined();
  });

  it('checks what opens as it checks any message: a cancel and a note, each with their own caps', async () => {
    const seal = await ring(['k1', 1]);
    const open = async (t: string, fields: Record<string, unknown>) =>
      seal.open(CHANNEL, (await seal.seal(CHANNEL, { ...header, t }, fields)).text, 1e6);
    expect(await open('cancel', { until: 5, handle: HANDLE, owner: null })).toEqual({
      message: { t: 'cancel', id: 'm1', from: 'gw2-1', until: 5, handle: HANDLE, owner: undefined },
    });
    expect(await open('cancel', { until: 5, handle: HANDLE, owner: null, pad: 'x'.repeat(3_000) })).toEqual({
      dropped: expect.stringMatching(/^a cancel of \d+ characters \(at most 2048\)$/),
    });
    const progress = { kind: 'progress', progress: 2, total: 3, message: 'packing' };
    expect(await open('note', { seq: 1, note: progress })).toEqual({
      message: { t: 'note', id: 'm1', from: 'gw2-1', seq: 1, note: progress },
    });
    expect(
      await open('note', { seq: 2, note: { kind: 'log', level: 'info', data: { step: 'two' } } }),
    ).toEqual({
      message: expect.objectContaining({ note: { kind: 'log', level: 'info', data: { step: 'two' } } }),
    });
    expect(await open('note', { seq: 0, note: progress })).toEqual({
      dropped: 'a note without a valid count',
    });
    expect(await open('note', { seq: 3, note: { kind: 'log', level: 'loud', data: 1 } })).toEqual({
      dropped: 'a note that is not progress, a log message or a URL completion',
    });
    expect(
      await open('note', { seq: 3, note: { kind: 'log', level: 'info', data: 'x'.repeat(70_000) } }),
    ).toEqual({
      dropped: expect.stringMatching(/^a note of \d+ characters \(at most 65736\)$/),
    });
  });

  it('rotates as sealed state does: the first key seals, every key opens, a retired key opens nothing', async () => {
    const before = await ring(['k1', 1]);
    const during = await ring(['k2', 2], ['k1', 1]);
    const after = await ring(['k2', 2]);
    const old = (await before.seal(CHANNEL, header, body())).text;
    const fresh = (await during.seal(CHANNEL, header, body())).text;
    expect(old).toMatch(/^pb1\.resume\.m1\.gw2-1\./);
    expect(await droppedBy(during, old)).toBeUndefined(); // sealed before the rotation began
    expect(await droppedBy(during, fresh)).toBeUndefined();
    expect(await droppedBy(after, fresh)).toBeUndefined();
    expect(await droppedBy(after, old)).toMatch(/^a message sealed with a key this replica does not have/);
    // A replica not rotated yet still opens what one that is rotated seals while both keys live.
    const rotatedFirst = await ring(['k1', 1], ['k2', 2]);
    expect(await droppedBy(rotatedFirst, fresh)).toBeUndefined();
  });

  it('refuses a key ring that cannot be used, as sealed state does', async () => {
    await expect(liveBusSeal([{ id: 'k1', secret: 'c2hvcnQ=' }])).rejects.toThrow(/shorter than 32 bytes/);
    await expect(liveBusSeal([])).rejects.toThrow(/at least one key/);
  });
});
