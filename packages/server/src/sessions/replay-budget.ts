/** What one 2025 session may replay to clients that come back with `Last-Event-ID`. */
export interface ReplayLimits {
  /** Replays being written at once. */
  readonly maxInFlight: number;
  /** Bytes replayed within `windowMs` (a few times the session's event buffer). */
  readonly maxBytes: number;
  readonly windowMs: number;
}

/** Why a replay was refused: too many at once, or too much lately. */
export type ReplayRefusal = 'busy' | 'spent';

/**
 * The replay budget of one session. A resumption re-sends what the session's buffer kept, so
 * without a bound a few hundred bytes of request re-send up to a megabyte, again and again; the
 * budget bounds replays in flight and the bytes they re-send in a window. Live events are not
 * charged: only what a replay re-sends.
 */
export class ReplayBudget {
  readonly #limits: ReplayLimits;
  readonly #now: () => number;
  readonly #spent: { readonly at: number; readonly bytes: number }[] = [];
  #inFlight = 0;

  constructor(limits: ReplayLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Starts a replay of `bytes` (call {@link release} when it is written), or says why not. */
  take(bytes: number): ReplayRefusal | undefined {
    const now = this.#now();
    while (this.#spent.length > 0 && this.#spent[0]!.at <= now - this.#limits.windowMs) this.#spent.shift();
    if (this.#inFlight >= this.#limits.maxInFlight) return 'busy';
    const spent = this.#spent.reduce((sum, entry) => sum + entry.bytes, 0);
    if (spent > 0 && spent + bytes > this.#limits.maxBytes) return 'spent';
    this.#spent.push({ at: now, bytes });
    this.#inFlight++;
    return undefined;
  }

  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }
}
