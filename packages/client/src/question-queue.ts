/** A question's place among those that arrived together. */
export interface Position {
  readonly index: number;
  readonly of: number;
}

/** What one turn produced, and optionally a promise that keeps the person busy after it answered. */
export interface Turn<T> {
  readonly value: T;
  /** The queue shows nothing else until this settles (a URL flow the person is finishing). */
  readonly hold?: Promise<unknown>;
}

/**
 * Puts questions in front of the person one at a time, in the order they arrived, whichever call
 * or round they come from. Questions of one `group` (one round of one call) are numbered
 * `index of of`. A question whose signal aborts while it waits is dropped without being shown.
 */
export class QuestionQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<string, number>();
  private readonly shown = new Map<string, number>();
  private pending = 0;
  private readonly busyListeners = new Set<(busy: boolean) => void>();

  /** True while any question waits, is shown, or holds the person's attention. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Called with `true` when the queue gets its first question and `false` when it empties. */
  onBusyChange(listener: (busy: boolean) => void): () => void {
    this.busyListeners.add(listener);
    return () => this.busyListeners.delete(listener);
  }

  ask<T>(group: string, signal: AbortSignal, run: (position: Position) => Promise<Turn<T>>): Promise<T> {
    this.count(this.waiting, group, +1);
    this.setPending(+1);
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => {
      release = resolve;
    });
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
      };
      const onAbort = () => settle(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      void previous.then(async () => {
        this.count(this.waiting, group, -1);
        try {
          if (signal.aborted || settled) {
            settle(() => reject(signal.reason));
            return;
          }
          const index = this.count(this.shown, group, +1);
          const turn = await run({ index, of: index + (this.waiting.get(group) ?? 0) });
          settle(() => resolve(turn.value));
          if (turn.hold) await turn.hold.catch(() => {});
        } catch (error) {
          settle(() => reject(error));
        } finally {
          signal.removeEventListener('abort', onAbort);
          if ((this.waiting.get(group) ?? 0) === 0) this.shown.delete(group);
          this.setPending(-1);
          release();
        }
      });
    });
  }

  private count(map: Map<string, number>, group: string, delta: number): number {
    const next = (map.get(group) ?? 0) + delta;
    if (next === 0) map.delete(group);
    else map.set(group, next);
    return next;
  }

  private setPending(delta: number): void {
    const wasBusy = this.pending > 0;
    this.pending += delta;
    if (wasBusy !== this.pending > 0) {
      for (const listener of this.busyListeners) listener(this.pending > 0);
    }
  }
}
