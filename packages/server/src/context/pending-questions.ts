/** The questions a server has sent on the 2025 eras and is still waiting on. */
export class PendingQuestions {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** A question was sent: it counts as pending until {@link settled} is called for it, once. */
  sent(): void {
    this.#count++;
  }

  /** A question that was {@link sent} has its answer, or failed. */
  settled(): void {
    this.#count--;
  }
}
