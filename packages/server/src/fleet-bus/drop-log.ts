import type { Logger } from '../log.js';

/** At most one line per this many milliseconds, however many messages are dropped. */
const EVERY_MS = 5_000;

/**
 * Reports messages dropped from a shared bus without letting a flood of them flood the log: the
 * first at once, the rest counted into the next line. Only the reason is logged (the message
 * itself came from whoever could write to the bus).
 */
export class DropLog {
  readonly #log: Logger;
  readonly #where: string;
  #lastAt = Number.NEGATIVE_INFINITY;
  #since = 0;
  #count = 0;

  /** `where`: the bus, as the log line names it (e.g. `session bus`). */
  constructor(log: Logger, where: string) {
    this.#log = log;
    this.#where = where;
  }

  /** Messages dropped so far. */
  get count(): number {
    return this.#count;
  }

  /** Counts a dropped message and reports `reason` (why, never what it said) unless a line went out in the last 5 s. */
  drop(level: 'info' | 'warn', reason: string): void {
    this.#count++;
    const now = Date.now();
    if (now - this.#lastAt < EVERY_MS) {
      this.#since++;
      return;
    }
    const more = this.#since > 0 ? ` (and ${this.#since} more dropped since the last report)` : '';
    this.#lastAt = now;
    this.#since = 0;
    this.#log(level, `Dropped ${reason} on the ${this.#where}${more}.`);
  }
}
