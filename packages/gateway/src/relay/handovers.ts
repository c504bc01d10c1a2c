import { randomUUID } from 'node:crypto';
import { isRecord } from '@parley/core';
import type { Step } from '../leg/step.js';

/** The `_meta` key a call handed back to Parley carries its handover under (inside the gateway only). */
export const HANDOVER_META = 'dev.parley.gateway/handover';

/**
 * Where a call served round by round by `directRelay` goes on when it needs what only the
 * gateway's Parley handler does (a question page, a secret, sampling, a re-ask, a task, a 2025
 * session): the step the upstream took last, and how many legs the call took before it; or
 * `live`: the first leg said the tool asks only over the 2025 handshake (era `auto`).
 */
export type Handover = { readonly from: number; readonly step: Step } | { readonly live: true };

/** How long a handover waits for the handler that takes it (it is taken within the same request). */
const MAX_AGE_MS = 60_000;
const MAX_HELD = 10_000;

/**
 * Handovers by a random name: the name travels in the `_meta` of the request Parley then serves
 * (it never leaves the gateway), and `relayCall` takes the handover by it, once. A name nobody
 * issued (a host that sends the key itself) names nothing.
 */
export class Handovers {
  readonly #held = new Map<string, { readonly handover: Handover; readonly at: number }>();

  /** Keeps a handover; returns the `_meta` entry that names it. */
  put(handover: Handover): Record<string, string> {
    const now = Date.now();
    for (const [name, held] of this.#held) {
      if (now - held.at < MAX_AGE_MS && this.#held.size < MAX_HELD) break;
      this.#held.delete(name);
    }
    const name = randomUUID();
    this.#held.set(name, { handover, at: now });
    return { [HANDOVER_META]: name };
  }

  /** The handover a request's `_meta` names, taken (a second take finds nothing). */
  take(meta: unknown): Handover | undefined {
    const name = isRecord(meta) ? meta[HANDOVER_META] : undefined;
    if (typeof name !== 'string') return undefined;
    const held = this.#held.get(name);
    this.#held.delete(name);
    return held?.handover;
  }
}
