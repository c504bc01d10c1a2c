import type { Json } from '../state/round-state.js';

/** What a store knows about one `ctx.once` key when a run asks to claim it. */
export type OnceClaim =
  /** Nobody ran it yet: this caller runs it, then calls `finish` (or `abandon` if it threw). */
  | { readonly status: 'claimed' }
  /** Another run is running it right now: wait and ask again. */
  | { readonly status: 'running' }
  /** It already ran: use its value. */
  | { readonly status: 'done'; readonly value: Json };

/**
 * Where `ctx.once` records what ran, so a side effect runs exactly once per logical call even when a
 * client sends the same 2026-07-28 round twice, or two rounds of one call land on two replicas.
 * `createServer({ once: { store } })` takes one; `MemoryOnceStore` (one process) and `RedisOnceStore`
 * (every replica) ship, and an app may bring its own (a database table with a unique key).
 *
 * Each method is one atomic step on one key (the call's idempotency key, `<callId>.<name>`):
 */
export interface OnceStore {
  /** Claims `key` for a run unless it is running or done. A claim lapses after `leaseMs`. */
  claim(key: string, leaseMs: number): Promise<OnceClaim>;
  /** Records the value of a claimed run; kept for `keepMs`. */
  finish(key: string, value: Json, keepMs: number): Promise<void>;
  /** Gives a claim up (the run threw), so the next attempt runs it again. */
  abandon(key: string): Promise<void>;
}

/** How long a `OnceStore` holds a claim, keeps a finished value, and waits for another run. */
export interface OnceTimings {
  /** How long a claim holds while its run works (a crashed replica's claim lapses after it). */
  readonly leaseMs: number;
  /** How long a finished value is kept: at least as long as a call's state lives. */
  readonly keepMs: number;
  /** How long a run waits for another that holds the claim before giving up. */
  readonly waitMs: number;
}

/** Thrown when another run held a `ctx.once` claim for longer than the wait allows. */
export class OnceBusyError extends Error {
  constructor(key: string, waitMs: number) {
    super(
      `ctx.once '${key}' is still running in another request after ${waitMs} ms; ` +
        'the client may retry the same round later (its result is recorded once it finishes).',
    );
    this.name = 'OnceBusyError';
  }
}

/**
 * Runs `fn` at most once for `key` across every request that shares `store`: the first claims and
 * runs it, later ones (a re-sent round, a second replica) wait for its value and return it. If the
 * run throws, the claim is given up and the error passes on.
 */
export async function runOnce<T extends Json>(
  store: OnceStore,
  key: string,
  fn: () => T | Promise<T>,
  timings: OnceTimings,
): Promise<Json> {
  const deadline = Date.now() + timings.waitMs;
  let pause = 10;
  while (true) {
    const claim = await store.claim(key, timings.leaseMs);
    if (claim.status === 'done') return claim.value;
    if (claim.status === 'claimed') {
      let value: Json;
      try {
        // Through JSON now, so this run returns exactly what the others will read.
        value = JSON.parse(JSON.stringify((await fn()) ?? null)) as Json;
      } catch (error) {
        await store.abandon(key).catch(() => {});
        throw error;
      }
      await store.finish(key, value, timings.keepMs);
      return value;
    }
    if (Date.now() >= deadline) throw new OnceBusyError(key, timings.waitMs);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 250);
  }
}
