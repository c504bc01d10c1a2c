import type { QuestionPages } from '../pages/question-pages.js';

/**
 * The pages whose answers held a secret during one call: erased from the store when the call ends
 * (its result is sent, or it fails), so a secret lives only as long as the call that asked for it.
 */
export class CallSecrets {
  /** Made on the first secret: most calls have none, and a 2025-era call keeps this while it waits. */
  #pages: Set<string> | undefined;

  add(page: string): void {
    this.#pages ??= new Set();
    this.#pages.add(page);
  }

  /** Whether the call has secret answers to erase. */
  get held(): boolean {
    return this.#pages !== undefined && this.#pages.size > 0;
  }

  /** Erases the call's secret answers (nothing when it had none). */
  async erase(pages: QuestionPages | undefined): Promise<void> {
    if (!this.#pages || this.#pages.size === 0 || !pages) return;
    const ids = [...this.#pages];
    this.#pages.clear();
    await pages.erase(ids);
  }
}
