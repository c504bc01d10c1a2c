import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BASE64URL_ALPHABET as ALPHABET } from './base64url-alphabet.js';
import type { GuardAsked, JournalEntry, Json, PendingAsk, RoundState } from './round-state.js';

/**
 * The byte layout of a sealed round state. Compact, because the client carries it on every
 * round: `[callId, expires, rounds, fingerprints, results, pending, guard, notified]` as JSON
 * (`pending` and `guard` are `null` when absent but something follows them; trailing absent ones,
 * and a `notified` of 0, are left out, so states sealed before `notified` existed read the same), the 24-bit
 * fingerprints packed 3 bytes each into one base64url string, and the whole deflated once it is
 * long enough for that to pay (long text answers).
 */
const RAW = 0x5b; // '[': plain JSON
const DEFLATED = 0x01;
const DEFLATE_FROM_BYTES = 1024;
// A small window: states are small, and zlib's set-up cost dominates at this size.
const ZLIB = { level: 6, windowBits: 10, memLevel: 4 } as const;

export function encodePayload(state: RoundState, expires: number): Uint8Array {
  const journal = state.journal;
  let fingerprints = '';
  const results: Json[] = new Array(journal.length);
  for (let index = 0; index < journal.length; index++) {
    const entry = journal[index]!;
    fingerprints += packFingerprint(entry[0]);
    results[index] = entry[1];
  }
  const pending = state.pending;
  const payload: Json[] = [state.callId, expires, state.rounds, fingerprints, results];
  if (pending)
    payload.push(
      pending.partial
        ? [pending.fingerprint, pending.tries, pending.partial]
        : [pending.fingerprint, pending.tries],
    );
  const notified = state.notified ?? 0;
  if (state.guard || notified > 0) {
    if (!pending) payload.push(null);
    payload.push(state.guard ? [state.guard.asked, state.guard.data] : null);
  }
  if (notified > 0) payload.push(notified);
  // Buffer.from encodes a state's JSON two to three times faster than TextEncoder at these sizes.
  const json = Buffer.from(JSON.stringify(payload), 'utf8');
  if (json.length < DEFLATE_FROM_BYTES) return json;
  const deflated = deflateRawSync(json, ZLIB);
  const framed = new Uint8Array(deflated.length + 1);
  framed[0] = DEFLATED;
  framed.set(deflated, 1);
  return framed.length < json.length ? framed : json;
}

/** Reads a payload back; `undefined` when it is not one (it opened, so this means a server bug or a key misuse). */
export function decodePayload(
  bytes: Uint8Array,
  maxBytes: number,
): { state: RoundState; expires: number } | undefined {
  let json: Uint8Array;
  if (bytes[0] === RAW) json = bytes;
  else if (bytes[0] === DEFLATED) {
    try {
      json = inflateRawSync(bytes.subarray(1), { windowBits: ZLIB.windowBits, maxOutputLength: maxBytes });
    } catch {
      return undefined;
    }
  } else return undefined;
  let payload: unknown;
  try {
    // The bytes opened, so they are the UTF-8 this server sealed: no validating decoder needed.
    payload = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(payload) || payload.length < 5 || payload.length > 8) return undefined;
  const [callId, expires, rounds, packed, results, pendingRaw, guardRaw, notified] = payload as unknown[];
  if (typeof callId !== 'string' || !isCount(expires) || !isCount(rounds) || typeof packed !== 'string')
    return undefined;
  if (!Array.isArray(results) || packed.length !== results.length * 4) return undefined;
  const journal: JournalEntry[] = new Array(results.length);
  for (let index = 0; index < results.length; index++) {
    const fingerprint = unpackFingerprint(packed, index * 4);
    if (fingerprint < 0) return undefined;
    journal[index] = [fingerprint, results[index] as Json];
  }
  let pending: PendingAsk | undefined;
  if (pendingRaw !== undefined && pendingRaw !== null) {
    const p = pendingRaw;
    if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !isCount(p[0]) || !isCount(p[1]))
      return undefined;
    if (p.length === 3 && (typeof p[2] !== 'object' || p[2] === null || Array.isArray(p[2])))
      return undefined;
    pending = {
      fingerprint: p[0],
      tries: p[1],
      ...(p.length === 3 && { partial: p[2] as { [key: string]: Json } }),
    };
  }
  let guard: GuardAsked | undefined;
  if (guardRaw !== undefined && guardRaw !== null) {
    if (!Array.isArray(guardRaw) || guardRaw.length !== 2 || !isCount(guardRaw[0])) return undefined;
    guard = { asked: guardRaw[0], data: guardRaw[1] as Json };
  }
  let count = 0;
  if (notified !== undefined) {
    if (!isCount(notified)) return undefined;
    count = notified;
  }
  return {
    state: {
      callId,
      rounds,
      journal,
      pending,
      ...(guard && { guard }),
      ...(count > 0 && { notified: count }),
    },
    expires,
  };
}

const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTET[ALPHABET.charCodeAt(i)] = i;

/**
 * A 24-bit fingerprint as its three big-endian bytes in base64url: exactly four characters, so a
 * journal's fingerprints are the base64url of their packed bytes without a buffer in between.
 */
function packFingerprint(fingerprint: number): string {
  const bits = fingerprint & 0xffffff;
  return (
    ALPHABET[bits >>> 18]! +
    ALPHABET[(bits >>> 12) & 63]! +
    ALPHABET[(bits >>> 6) & 63]! +
    ALPHABET[bits & 63]!
  );
}

/** The fingerprint packed at `at`; -1 when the four characters are not base64url. */
function unpackFingerprint(packed: string, at: number): number {
  let bits = 0;
  for (let i = at; i < at + 4; i++) {
    const code = packed.charCodeAt(i);
    const sextet = code < 128 ? SEXTET[code]! : -1;
    if (sextet < 0) return -1;
    bits = (bits << 6) | sextet;
  }
  return bits;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
