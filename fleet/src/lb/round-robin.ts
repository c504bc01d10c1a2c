/**
 * Predicts which replica a round-robin balancer sends the next request to, from the replicas that
 * served the requests so far. It learns "after X comes Y" from what it sees, so it follows
 * nginx's own order (which a failed and recovered replica can reshuffle) instead of assuming one.
 */
export class RoundRobinPredictor {
  readonly #replicas: readonly string[];
  readonly #after = new Map<string, string>();
  #last: string | undefined;
  #predicted = 0;
  #missed = 0;

  /** `replicas`: their addresses in configuration order, the order to assume before anything is seen. */
  constructor(replicas: readonly string[]) {
    if (replicas.length < 2) throw new RangeError('Round-robin needs at least two replicas.');
    this.#replicas = replicas;
  }

  /** The replica the next request most likely lands on. */
  next(): string {
    if (this.#last === undefined) return this.#replicas[0]!;
    const learned = this.#after.get(this.#last);
    if (learned !== undefined) return learned;
    const index = this.#replicas.indexOf(this.#last);
    return this.#replicas[(index + 1) % this.#replicas.length]!;
  }

  /** Records the replica that served a request (`undefined`: none did). */
  saw(replica: string | undefined): void {
    if (replica === undefined) return;
    this.#predicted++;
    if (replica !== this.next()) this.#missed++;
    if (this.#last !== undefined) this.#after.set(this.#last, replica);
    this.#last = replica;
  }

  /** How many predictions were checked, and how many were wrong. */
  get accuracy(): { predicted: number; missed: number } {
    return { predicted: this.#predicted, missed: this.#missed };
  }
}
