import type { KeyRing } from '@parley/core/seal';
import { bindingBytes, type StateBinding } from './binding.js';
import type { JournalEntry, Json, PendingAsk, RoundState } from './round-state.js';

/** Why a presented state was refused. For the log only: the wire error is always the same. */
export type StateRefusal =
  | 'not-a-string'
  | 'too-large'
  | 'malformed'
  | 'unknown-key'
  | 'unauthentic'
  | 'expired'
  | 'from-the-future'
  | 'bad-payload';

export const STATE_REFUSAL_EXPLANATIONS: Record<StateRefusal, string> = {
  'not-a-string': 'requestState was not a string',
  'too-large': 'requestState is larger than this server ever issues',
  malformed: 'requestState is not a Parley state token (edited, truncated or re-encoded)',
  'unknown-key':
    'requestState was sealed with a key this server no longer has (retired key, or another deployment)',
  unauthentic:
    'requestState failed authentication: tampered, or sealed for another server, method, tool/prompt/resource, arguments or user',
  expired: 'requestState has expired',
  'from-the-future': 'requestState claims an expiry beyond what this server issues (clock skew or forgery)',
  'bad-payload': 'requestState opened but its contents are not a valid round state',
};

export interface StateCodecOptions {
  /** How long a state stays valid after it is issued (each round issues a new one). */
  readonly ttlSeconds: number;
  /** Largest state token this server will issue or accept, in characters. */
  readonly maxChars: number;
  /** Tolerated clock difference between replicas. */
  readonly clockSkewSeconds: number;
  readonly now?: () => number;
}

export class StateTooLargeError extends Error {
  constructor(size: number, limit: number) {
    super(
      `This call's requestState would be ${size} characters, over the limit of ${limit}. The state carries every ` +
        'answer and every ctx.once() result of the call so far: keep large data server-side (store it and ' +
        'return only its id from ctx.once), or raise `state.maxChars` in createServer().',
    );
    this.name = 'StateTooLargeError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Seals round states into `requestState` tokens and opens them again, bound to their call. */
export class StateCodec {
  readonly #ring: KeyRing;
  readonly #options: StateCodecOptions;
  readonly #now: () => number;

  constructor(ring: KeyRing, options: StateCodecOptions) {
    this.#ring = ring;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async seal(state: RoundState, binding: StateBinding): Promise<string> {
    const expires = Math.floor(this.#now() / 1000) + this.#options.ttlSeconds;
    const payload: { c: string; e: number; r: number; j: readonly JournalEntry[]; p?: Json } = {
      c: state.callId,
      e: expires,
      r: state.rounds,
      j: state.journal,
    };
    if (state.pending) {
      const { fingerprint, tries, partial } = state.pending;
      payload.p = partial ? [fingerprint, tries, partial] : [fingerprint, tries];
    }
    const token = await this.#ring.seal(encoder.encode(JSON.stringify(payload)), bindingBytes(binding));
    if (token.length > this.#options.maxChars)
      throw new StateTooLargeError(token.length, this.#options.maxChars);
    return token;
  }

  async open(
    token: unknown,
    binding: StateBinding,
  ): Promise<{ ok: true; state: RoundState } | { ok: false; reason: StateRefusal }> {
    if (typeof token !== 'string') return { ok: false, reason: 'not-a-string' };
    if (token.length > this.#options.maxChars) return { ok: false, reason: 'too-large' };
    const opened = await this.#ring.open(token, bindingBytes(binding));
    if (!opened.ok) return { ok: false, reason: opened.reason };
    let payload: unknown;
    try {
      payload = JSON.parse(decoder.decode(opened.plaintext));
    } catch {
      return { ok: false, reason: 'bad-payload' };
    }
    const state = decodePayload(payload);
    if (!state) return { ok: false, reason: 'bad-payload' };
    const now = Math.floor(this.#now() / 1000);
    if (state.expires < now - this.#options.clockSkewSeconds) return { ok: false, reason: 'expired' };
    if (state.expires > now + this.#options.ttlSeconds + this.#options.clockSkewSeconds) {
      return { ok: false, reason: 'from-the-future' };
    }
    return { ok: true, state: state.state };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function decodePayload(payload: unknown): { expires: number; state: RoundState } | undefined {
  if (!isRecord(payload) || !isCount(payload.e) || !isCount(payload.r) || !Array.isArray(payload.j))
    return undefined;
  for (const entry of payload.j) {
    if (!Array.isArray(entry) || entry.length !== 2 || !isCount(entry[0])) return undefined;
  }
  let pending: PendingAsk | undefined;
  if (payload.p !== undefined) {
    const p = payload.p;
    if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !isCount(p[0]) || !isCount(p[1]))
      return undefined;
    if (p.length === 3 && !isRecord(p[2])) return undefined;
    pending = {
      fingerprint: p[0],
      tries: p[1],
      ...(p.length === 3 && { partial: p[2] as { [key: string]: Json } }),
    };
  }
  return {
    expires: payload.e,
    state: { callId: payload.c as string, rounds: payload.r, journal: payload.j as JournalEntry[], pending },
  };
}
