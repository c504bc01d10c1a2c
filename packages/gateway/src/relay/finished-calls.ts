import { isDeepStrictEqual } from 'node:util';
import type { Step, UpstreamAnswer } from './step.js';

/** How a held call ended: its last step, or the error it ended with. */
export type Ending = { readonly step: Step } | { readonly error: unknown };

/** The request that ended a held call, and what it got. */
export interface FinishedCall {
  /** The user the call answered (`undefined`: an anonymous host). */
  readonly owner: string | undefined;
  readonly round: number;
  readonly answers: Readonly<Record<string, UpstreamAnswer>> | undefined;
  readonly ending: Ending;
}

interface Kept extends FinishedCall {
  readonly bytes: number;
  readonly until: number;
}

/**
 * The endings of held calls that finished a moment ago, so that a copy of the request that ended
 * one (its response was lost on the way back: the replica that passed it on stopped, say) gets the
 * same ending instead of "gone". Bounded in time and in bytes: an ending too large to keep, or
 * pushed out by newer ones, is not replayed.
 */
export class FinishedCalls {
  readonly #kept = new Map<string, Kept>();
  readonly #keepMs: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(keepMs: number, maxBytes: number) {
    this.#keepMs = keepMs;
    this.#maxBytes = maxBytes;
  }

  /** Keeps how the call behind `handle` ended. */
  keep(handle: string, finished: FinishedCall): void {
    const bytes = sizeOf(finished.ending);
    if (bytes > this.#maxBytes / 4) return;
    this.#forget(handle);
    this.#kept.set(handle, { ...finished, bytes, until: Date.now() + this.#keepMs });
    this.#bytes += bytes;
    for (const [oldest] of this.#kept) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#forget(oldest);
    }
  }

  /** The ending of the call behind `handle`, if this request is a copy of the one that ended it. */
  replay(
    handle: string,
    request: {
      readonly owner: string | undefined;
      readonly round: number;
      readonly answers: Readonly<Record<string, UpstreamAnswer>> | undefined;
    },
  ): Ending | undefined {
    const kept = this.#kept.get(handle);
    if (kept === undefined || kept.until < Date.now()) return undefined;
    const same =
      kept.owner === request.owner &&
      kept.round === request.round &&
      isDeepStrictEqual(kept.answers, request.answers);
    return same ? kept.ending : undefined;
  }

  /** Drops what is past its time. */
  sweep(): void {
    const now = Date.now();
    for (const [handle, kept] of this.#kept) if (kept.until < now) this.#forget(handle);
  }

  clear(): void {
    this.#kept.clear();
    this.#bytes = 0;
  }

  #forget(handle: string): void {
    const kept = this.#kept.get(handle);
    if (kept === undefined) return;
    this.#kept.delete(handle);
    this.#bytes -= kept.bytes;
  }
}

function sizeOf(ending: Ending): number {
  if ('step' in ending) return Buffer.byteLength(JSON.stringify(ending.step));
  return 256 + (ending.error instanceof Error ? ending.error.message.length * 2 : 0);
}
