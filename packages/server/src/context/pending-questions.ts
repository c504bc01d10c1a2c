/** The questions a server has sent on the 2025 eras and is still waiting on. */
export class PendingQuestions {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  readonly #settled = () => {
    this.#count--;
  };

  /** Counts `question` as pending until it settles, however it settles. */
  track<T>(question: Promise<T>): Promise<T> {
    this.#count++;
    return question.finally(this.#settled);
  }
}
