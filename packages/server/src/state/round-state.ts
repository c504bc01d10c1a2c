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
  /** Rounds answered with an InputRequiredResult so far. */
  readonly rounds: number;
  readonly journal: readonly JournalEntry[];
  readonly pending: PendingAsk | undefined;
}

export const EMPTY_STATE: RoundState = { rounds: 0, journal: [], pending: undefined };
