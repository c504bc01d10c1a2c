import { randomBytes } from 'node:crypto';
import { ToolError } from '@parley/server';
import { type LiveCall, type LiveListeners, RoundAnsweredError } from '../upstream/live-call.js';
import type { Step, UpstreamAnswer } from './step.js';

/** Who a parked call belongs to: the host's verified user, or nobody (the handle is then the capability). */
export type Owner = string | undefined;

/** What resuming a parked call asks of the replica that holds it. */
export interface Resume {
  readonly handle: string;
  readonly owner: Owner;
  /** The round the answers are for (the step's). */
  readonly round: number;
  /** The host's answers by question key; absent when the host only came back (a `wait` step). */
  readonly answers: Readonly<Record<string, UpstreamAnswer>> | undefined;
  /** How long to wait for the call's next step before answering `wait`. */
  readonly holdMs: number;
}

/** Passes a resume to the replica that holds the call (a fleet of gateways; see `@parley/gateway/redis`). */
export interface LiveCallRouter {
  /** The replica this process is: the first part of every handle it issues. */
  readonly replica: string;
  /** Sends `resume` to `replica` and resolves with the step it answers. */
  forward(replica: string, resume: Resume): Promise<Step>;
  /** Serves the resumes other replicas send this one. */
  serve(resume: (request: Resume) => Promise<Step>): void;
  close(): Promise<void>;
}

/** Limits of the parked calls one gateway process holds. */
export interface LiveCallLimits {
  /** How long a parked call waits for its next round before it is cancelled upstream. */
  readonly ttlMs: number;
  /** Parked calls one signed-in user may hold at once. */
  readonly perUser: number;
  /** Parked calls of anonymous hosts, together. */
  readonly anonymous: number;
}

interface Parked {
  readonly live: LiveCall;
  readonly owner: Owner;
  readonly upstream: string;
  expiresAt: number;
  resuming: boolean;
}

/** Why a parked call could not be resumed, as the host reads it. */
export class ParkedCallError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = 'ParkedCallError';
  }
}

/**
 * The upstream calls this gateway process holds open while a host answers their questions (a
 * 2025-era upstream behind a 2026-07-28 host, or behind a host answering on a question page). Each
 * has an unguessable handle, named in the host's sealed `requestState`; it answers only its owner,
 * each round once, and is cancelled upstream when its host does not come back in time. On a fleet,
 * a handle of another replica is resumed there through the {@link LiveCallRouter}.
 */
export class LiveCalls {
  readonly #parked = new Map<string, Parked>();
  readonly #perOwner = new Map<string, number>();
  readonly #limits: LiveCallLimits;
  readonly #router: LiveCallRouter | undefined;
  readonly #replica: string;
  readonly #sweeper: NodeJS.Timeout;

  constructor(limits: LiveCallLimits, router?: LiveCallRouter) {
    this.#limits = limits;
    this.#router = router;
    this.#replica = router?.replica ?? 'local';
    router?.serve((request) => this.#resumeHere(request, {}));
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(limits.ttlMs, 30_000));
    this.#sweeper.unref();
  }

  /** Calls held now. */
  get size(): number {
    return this.#parked.size;
  }

  /** Holds `live` for `owner`; returns its handle. Refused past the owner's cap. */
  park(live: LiveCall, owner: Owner, upstream: string): string {
    const bucket = owner === undefined ? '' : `user:${owner}`;
    const held = this.#perOwner.get(bucket) ?? 0;
    const cap = owner === undefined ? this.#limits.anonymous : this.#limits.perUser;
    if (held >= cap) {
      live.cancel('too many calls waiting on questions');
      throw new ParkedCallError(
        `Too many calls are waiting on questions (${cap}${owner === undefined ? ' for anonymous hosts' : ' for you'}); answer or cancel one of them, then call again.`,
      );
    }
    const handle = `${this.#replica}.${randomBytes(32).toString('base64url')}`;
    this.#parked.set(handle, {
      live,
      owner,
      upstream,
      expiresAt: Date.now() + this.#limits.ttlMs,
      resuming: false,
    });
    this.#perOwner.set(bucket, held + 1);
    return handle;
  }

  /** Resumes the call behind `handle`, here or on the replica that holds it. */
  resume(request: Resume, listeners: LiveListeners): Promise<Step> {
    const replica = request.handle.slice(0, request.handle.indexOf('.'));
    if (replica === this.#replica || this.#router === undefined) return this.#resumeHere(request, listeners);
    return this.#router.forward(replica, request);
  }

  /** Lets go of a call whose host went away (its upstream call is cancelled). */
  drop(handle: string, reason: string): void {
    const parked = this.#parked.get(handle);
    if (parked === undefined) return;
    this.#release(handle, parked);
    parked.live.cancel(reason);
  }

  /** Cancels every call held (the gateway is stopping). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const [handle] of this.#parked) this.drop(handle, 'the gateway stopped');
    await this.#router?.close();
  }

  async #resumeHere(request: Resume, listeners: LiveListeners): Promise<Step> {
    const parked = this.#parked.get(request.handle);
    if (parked === undefined || parked.expiresAt < Date.now())
      throw new ParkedCallError(
        'The upstream call this answer was for is gone (it expired, ended, or was answered already); call again to start over.',
      );
    if (parked.owner !== request.owner)
      throw new ParkedCallError('This call belongs to another user; call again to start your own.');
    if (parked.resuming)
      throw new ParkedCallError('This round is being answered by another request already; wait for it.');
    if (request.answers !== undefined) {
      try {
        parked.live.answer(request.round, request.answers);
      } catch (error) {
        // A round answered twice (a copy of a request): the call itself goes on for its first answer.
        if (error instanceof RoundAnsweredError) throw new ParkedCallError(`Not answered: ${error.message}.`);
        throw error;
      }
    }
    parked.resuming = true;
    parked.live.listen(listeners);
    try {
      const step = await parked.live.next(request.handle, request.holdMs);
      if (step.kind === 'result') this.#release(request.handle, parked);
      else parked.expiresAt = Date.now() + this.#limits.ttlMs;
      return step;
    } catch (error) {
      // The upstream call failed or ended: nothing is left to resume.
      this.#release(request.handle, parked);
      throw error;
    } finally {
      parked.resuming = false;
      parked.live.listen({});
    }
  }

  #release(handle: string, parked: Parked): void {
    if (!this.#parked.delete(handle)) return;
    const bucket = parked.owner === undefined ? '' : `user:${parked.owner}`;
    const held = (this.#perOwner.get(bucket) ?? 1) - 1;
    if (held <= 0) this.#perOwner.delete(bucket);
    else this.#perOwner.set(bucket, held);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [handle, parked] of this.#parked) {
      if (parked.expiresAt >= now || parked.resuming) continue;
      this.#release(handle, parked);
      parked.live.cancel(`its host did not come back within ${Math.round(this.#limits.ttlMs / 1000)} s`);
    }
  }
}
