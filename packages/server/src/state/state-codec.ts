import type { KeyRing } from '@parley/core/seal';
import { AuthorError } from '../errors.js';
import { decodePayload, encodePayload } from './payload.js';
import type { Json, RoundState } from './round-state.js';

/** The one wire error for a presented state that does not open (`-32602`): why goes to the log only. */
export const INVALID_STATE = {
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
} as const;

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

/** Thrown when a call's sealed `requestState` would pass `state.maxChars`; the message says how to keep it small. */
export class StateTooLargeError extends AuthorError {
  constructor(size: number, limit: number) {
    super(
      `This call's requestState would be ${size} characters, over the limit of ${limit}. The state carries every ` +
        'answer and every ctx.once() result of the call so far: keep large data server-side (store it and ' +
        'return only its id from ctx.once), or raise `state.maxChars` in createServer().',
    );
    this.name = 'StateTooLargeError';
  }
}

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

  /**
   * Seals a round state for the call `binding` describes (the bytes of `bindingBytes`), valid for
   * the codec's lifetime or `ttlSeconds` (a call parked on the server waits as long as its page).
   */
  seal(state: RoundState, binding: Uint8Array, ttlSeconds = this.#options.ttlSeconds): Promise<string> {
    return this.#sealed(encodePayload(state, this.#expiresAt(ttlSeconds)), binding);
  }

  /**
   * Opens a presented state for the call `binding` describes. Never throws. `ttlSeconds`: the
   * longest lifetime such a state is sealed with (longer claims are refused as forged).
   */
  async open(
    token: unknown,
    binding: Uint8Array,
    ttlSeconds = this.#options.ttlSeconds,
  ): Promise<{ ok: true; state: RoundState } | { ok: false; reason: StateRefusal }> {
    if (typeof token !== 'string') return { ok: false, reason: 'not-a-string' };
    if (token.length > this.#options.maxChars) return { ok: false, reason: 'too-large' };
    const opened = await this.#ring.open(token, binding);
    if (!opened.ok) return { ok: false, reason: opened.reason };
    const decoded = decodePayload(opened.plaintext, this.#options.maxChars * 8);
    if (!decoded) return { ok: false, reason: 'bad-payload' };
    const late = this.#expiryRefusal(decoded.expires, ttlSeconds);
    return late === undefined ? { ok: true, state: decoded.state } : { ok: false, reason: late };
  }

  /** Why a state that expires at `expires` (epoch seconds) is refused now, if it is. */
  #expiryRefusal(expires: number, ttlSeconds: number): StateRefusal | undefined {
    const now = Math.floor(this.#now() / 1000);
    if (expires < now - this.#options.clockSkewSeconds) return 'expired';
    if (expires > now + ttlSeconds + this.#options.clockSkewSeconds) return 'from-the-future';
    return undefined;
  }

  #expiresAt(ttlSeconds: number): number {
    return Math.floor(this.#now() / 1000) + ttlSeconds;
  }

  async #sealed(payload: Uint8Array, binding: Uint8Array): Promise<string> {
    const token = await this.#ring.seal(payload, binding);
    if (token.length > this.#options.maxChars)
      throw new StateTooLargeError(token.length, this.#options.maxChars);
    return token;
  }

  /**
   * Seals the JSON a direct tool call hands on to its next round (`server.directToolCalls`), with
   * this codec's keys, lifetime and size limit; `binding` is made with the direct purpose, so it
   * never opens as a call's own state, nor that as this.
   */
  sealJson(state: Json, binding: Uint8Array): Promise<string> {
    const expires = this.#expiresAt(this.#options.ttlSeconds);
    return this.#sealed(Buffer.from(JSON.stringify([expires, state]), 'utf8'), binding);
  }

  /** Opens what {@link sealJson} sealed. Never throws. */
  async openJson(
    token: string,
    binding: Uint8Array,
  ): Promise<{ ok: true; state: Json } | { ok: false; reason: StateRefusal }> {
    if (token.length > this.#options.maxChars) return { ok: false, reason: 'too-large' };
    const opened = await this.#ring.open(token, binding);
    if (!opened.ok) return { ok: false, reason: opened.reason };
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(opened.plaintext).toString('utf8'));
    } catch {
      return { ok: false, reason: 'bad-payload' };
    }
    if (!Array.isArray(decoded) || decoded.length !== 2 || typeof decoded[0] !== 'number')
      return { ok: false, reason: 'bad-payload' };
    const late = this.#expiryRefusal(decoded[0], this.#options.ttlSeconds);
    return late === undefined ? { ok: true, state: decoded[1] as Json } : { ok: false, reason: late };
  }
}
