/** How often expired ids are swept out. */
const SWEEP_MS = 1_000;

/**
 * The ids of the messages a replica acted on (resumes, cancels), each kept until its deadline: a
 * copy of one (replayed from the bus) is refused until then, and after it the deadline refuses it.
 * Holds at most `max` ids; past that, new messages are refused until some expire.
 */
export class SeenMessages {
  readonly #until = new Map<string, number>();
  readonly #max: number;
  #sweptAt = Number.NEGATIVE_INFINITY;

  /** `max`: the most ids kept at once. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Ids kept now. */
  get size(): number {
    return this.#until.size;
  }

  /** Records `id` until `until` (ms since the epoch): `fresh` the first time, `copy` again before then. */
  admit(id: string, until: number, now = Date.now()): 'fresh' | 'copy' | 'full' {
    if (now - this.#sweptAt >= SWEEP_MS) this.#sweep(now);
    const known = this.#until.get(id);
    if (known !== undefined && known >= now) return 'copy';
    if (this.#until.size >= this.#max) return 'full';
    this.#until.set(id, until);
    return 'fresh';
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [id, until] of this.#until) if (until < now) this.#until.delete(id);
  }
}
