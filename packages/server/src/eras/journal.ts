import { ReplayDivergenceError } from '../errors.js';
import type { JournalEntry, Json } from '../state/round-state.js';

/**
 * A call's journal: what each ask point and `ctx.once` gave, in order. A run of the handler that
 * starts from a journal (every 2026-07-28 round, a call resumed from a page) replays it entry by
 * entry, and what the run adds goes at its end.
 */
export class Journal {
  readonly #entries: JournalEntry[];
  #cursor = 0;

  constructor(entries: readonly JournalEntry[] = []) {
    this.#entries = [...entries];
  }

  /** Every entry, replayed and new. */
  get entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  /** Where the run is: the number of entries it replayed or added. */
  get position(): number {
    return this.#cursor;
  }

  /** Whether entries remain to be replayed. */
  get replaying(): boolean {
    return this.#cursor < this.#entries.length;
  }

  /** The fingerprint of the next entry to replay; `undefined` once the journal is replayed. */
  get upNext(): number | undefined {
    return this.#entries[this.#cursor]?.[0];
  }

  /**
   * The journaled result of the next point, which must be the one identified by `fingerprint`
   * (`label` describes it in the divergence error); `undefined` once the journal is replayed.
   */
  next(fingerprint: number, label: string): Json | undefined {
    if (this.#cursor >= this.#entries.length) return undefined;
    const [journaled, result] = this.#entries[this.#cursor]!;
    if (journaled !== fingerprint) throw new ReplayDivergenceError(this.#cursor, label);
    this.#cursor++;
    return result;
  }

  /** Adds what a point gave, after everything replayed. */
  push(fingerprint: number, result: Json): void {
    this.#entries.push([fingerprint, result]);
    this.#cursor++;
  }
}
