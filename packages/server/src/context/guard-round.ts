import type { AskItem, ItemResult } from '../ask/ask-item.js';
import type { Json } from '../state/round-state.js';

/** What the era knows of the guard round: the answers to what the last round asked, and the author's data. */
export interface GuardRound {
  /** The author's data from the last round, `undefined` on a first round. */
  readonly data: Json | undefined;
  /** This round's results for `items` (asked together under `fingerprint`), by key. */
  answers(items: readonly AskItem[], fingerprint: number): Promise<Record<string, ItemResult>>;
  /**
   * The keys of a `ctx.answers()` call whose questions were not the ones the last round asked (so it
   * got no answers), when there was one: what a guard that loops to the round cap did wrong.
   */
  mismatch?(): readonly string[] | undefined;
}

/** A first round, or a call that never returned `inputRequired`: no answers, no data. */
export const NO_GUARD_ROUND: GuardRound = { data: undefined, answers: async () => ({}) };
