import type { QuestionPages } from '../pages/question-pages.js';

/**
 * The pages whose answers held a secret during one call: erased from the store when the call ends
 * (its result is sent, or it fails), so a secret lives only as long as the call that asked for it.
 */
export class CallSecrets {
  readonly #pages = new Set<string>();

  add(page: string): void {
    this.#pages.add(page);
  }

  /** Erases the call's secret answers (nothing when it had none). */
  async erase(pages: QuestionPages | undefined): Promise<void> {
    if (this.#pages.size === 0 || !pages) return;
    const ids = [...this.#pages];
    this.#pages.clear();
    await pages.erase(ids);
  }
}
