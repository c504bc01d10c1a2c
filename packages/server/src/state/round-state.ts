import { randomBytesPooled } from './random-pool.js';

/** A JSON value, as it can travel inside a sealed state. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * One answered ask point of the handler: its fingerprint (what was asked) and its encoded result
 * (what the handler received). The handler replays these in order on every round.
 */
export type JournalEntry = readonly [fingerprint: number, result: Json];

/** The ask point the last round stopped at, waiting for answers. */
export interface PendingAsk {
  readonly fingerprint: number;
  /** Invalid answers seen so far for this ask point. */
  readonly tries: number;
  /** For a batch: the keys already answered validly in earlier tries. */
  readonly partial?: { readonly [key: string]: Json };
}

/** Everything the server remembers about one call between rounds. */
export interface RoundState {
  /** Random id of the logical call, the same in every round (the base of `ctx.once` idempotency keys). */
  readonly callId: string;
  /** Rounds answered with an InputRequiredResult so far. */
  readonly rounds: number;
  readonly journal: readonly JournalEntry[];
  readonly pending: PendingAsk | undefined;
  /** Set when the last round ended with a guard-style `inputRequired(questions, { data })`. */
  readonly guard?: GuardAsked;
  /**
   * How many `ctx.progress`/`ctx.log` calls the handler made in earlier rounds (they were sent then,
   * so a later round that makes them again does not send them). Absent in states sealed before it
   * existed, and when there were none.
   */
  readonly notified?: number;
}

/** What a guard-style round asked (the fingerprint of its questions) and the author's own data. */
export interface GuardAsked {
  readonly asked: number;
  readonly data: Json;
}

/**
 * `state` with `notified` set (field by field: an object spread of a state cost more than the
 * rest of sealing's bookkeeping on the round path).
 */
export function withNotified(state: RoundState, notified: number): RoundState {
  const next: { -readonly [K in keyof RoundState]: RoundState[K] } = {
    callId: state.callId,
    rounds: state.rounds,
    journal: state.journal,
    pending: state.pending,
    notified,
  };
  if (state.guard !== undefined) next.guard = state.guard;
  return next;
}

/** The state of a call's first round. */
export function firstRoundState(): RoundState {
  return { callId: newCallId(), rounds: 0, journal: [], pending: undefined };
}

/** 12 random bytes, base64url (96 bits: unique per call for any realistic number of calls). */
export function newCallId(): string {
  return randomBytesPooled(12).toString('base64url');
}
