import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ToolError } from '@parley/server';
import type { LiveListeners, Owner } from '../leg/host-facts.js';
import type { Step, UpstreamAnswer } from '../leg/step.js';
import { type Ending, FinishedCalls } from './finished-calls.js';
import { type LiveCall, RoundAnsweredError } from './live-call.js';

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
  /**
   * Sends `resume` to `replica` and resolves with the step it answers; what the held call's
   * upstream says meanwhile (progress, logs, URL completions) reaches `listeners`.
   */
  forward(replica: string, resume: Resume, listeners?: LiveListeners): Promise<Step>;
  /**
   * Serves the resumes other replicas send this one (what the call says meanwhile goes to the
   * `listeners` given), and their hosts' cancels (`drop`: the held call `handle`, for `owner`).
   */
  serve(
    resume: (request: Resume, listeners: LiveListeners) => Promise<Step>,
    drop?: (handle: string, owner: Owner) => void,
  ): void;
  /** Tells `replica` that the host of the call `handle` it holds cancelled it (for `owner`). */
  cancel?(replica: string, handle: string, owner: Owner): void;
  /** Resolves once other replicas can reach this one (the gateway waits for it before it serves). */
  ready?(): Promise<void>;
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
  /** The latest resume: a copy of it (its response was lost on the way) gets the same step. */
  last: LastResume | undefined;
}

interface LastResume {
  readonly round: number;
  readonly answers: Readonly<Record<string, UpstreamAnswer>> | undefined;
  readonly step: Promise<Step>;
  /** The step, once it came; `undefined` while the resume runs. */
  done: Step | undefined;
}

/** How long a finished call's last step is kept for a copy of the request that finished it. */
const FINISHED_KEEP_MS = 60_000;
/** The most those kept steps may take together. */
const FINISHED_MAX_BYTES = 8 * 1024 * 1024;

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
 * each round once, and is cancelled upstream when its host does not come back in time. A copy of
 * the latest request (a host sending a round again because its response was lost) gets the same
 * step, also for a moment after the call finished. On a fleet, a handle of another replica is
 * resumed there through the {@link LiveCallRouter}.
 */
export class LiveCalls {
  readonly #parked = new Map<string, Parked>();
  readonly #perOwner = new Map<string, number>();
  readonly #limits: LiveCallLimits;
  readonly #router: LiveCallRouter | undefined;
  readonly #replica: string;
  readonly #sweeper: NodeJS.Timeout;
  readonly #finished = new FinishedCalls(FINISHED_KEEP_MS, FINISHED_MAX_BYTES);

  constructor(limits: LiveCallLimits, router?: LiveCallRouter) {
    this.#limits = limits;
    this.#router = router;
    this.#replica = router?.replica ?? 'local';
    router?.serve(
      (request, listeners) => {
        if (replicaOf(request.handle) !== this.#replica)
          return Promise.reject(new ParkedCallError(`This gateway replica does not hold that call; ${GONE}`));
        return this.#resumeHere(request, listeners);
      },
      (handle, owner) =>
        this.#dropHere(handle, 'the host cancelled the call (on another gateway replica)', owner),
    );
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
      last: undefined,
    });
    this.#perOwner.set(bucket, held + 1);
    return handle;
  }

  /** Resumes the call behind `handle`, here or on the replica that holds it. */
  resume(request: Resume, listeners: LiveListeners): Promise<Step> {
    const replica = replicaOf(request.handle);
    if (replica === this.#replica || this.#router === undefined) return this.#resumeHere(request, listeners);
    return this.#router.forward(replica, request, listeners);
  }

  /**
   * Lets go of a call whose host (`owner`) went away: its upstream call is cancelled, here or on
   * the replica that holds it. A call of another owner is left alone.
   */
  drop(handle: string, reason: string, owner: Owner): void {
    const replica = replicaOf(handle);
    if (replica === this.#replica || this.#router === undefined) this.#dropHere(handle, reason, owner);
    else this.#router.cancel?.(replica, handle, owner);
  }

  /** Cancels every call held (the gateway is stopping). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const [handle, parked] of this.#parked) this.#dropHere(handle, 'the gateway stopped', parked.owner);
    this.#finished.clear();
    await this.#router?.close();
  }

  #dropHere(handle: string, reason: string, owner: Owner): void {
    const parked = this.#parked.get(handle);
    if (parked === undefined || parked.owner !== owner) return;
    this.#release(handle, parked);
    parked.live.cancel(reason);
  }

  #resumeHere(request: Resume, listeners: LiveListeners): Promise<Step> {
    const parked = this.#parked.get(request.handle);
    if (parked === undefined || parked.expiresAt < Date.now()) {
      const ending = this.#finished.replay(request.handle, request);
      if (ending !== undefined)
        return 'step' in ending ? Promise.resolve(ending.step) : Promise.reject(ending.error);
      return Promise.reject(
        new ParkedCallError(
          `The upstream call this answer was for is gone (it expired, ended, or was answered already); ${GONE}`,
        ),
      );
    }
    if (parked.owner !== request.owner)
      return Promise.reject(
        new ParkedCallError('This call belongs to another user; call again to start your own.'),
      );
    const last = parked.last;
    const copy =
      last !== undefined && last.round === request.round && isDeepStrictEqual(last.answers, request.answers);
    // A copy of the latest request gets its step (waited for, if it is still coming); after a `wait`
    // step nothing was handed out, so the call is simply asked again.
    if (copy && last.done?.kind !== 'wait') return last.step;
    if (last !== undefined && last.done === undefined)
      return Promise.reject(
        new ParkedCallError('This round is being answered by another request already; wait for it.'),
      );
    if (request.answers !== undefined && !copy) {
      try {
        parked.live.answer(request.round, request.answers);
      } catch (error) {
        // A round answered twice (a copy of a request): the call itself goes on for its first answer.
        if (error instanceof RoundAnsweredError)
          return Promise.reject(new ParkedCallError(`Not answered: ${error.message}.`));
        return Promise.reject(error);
      }
    }
    const step = this.#advance(request, parked, listeners);
    const resume: LastResume = { round: request.round, answers: request.answers, step, done: undefined };
    parked.last = resume;
    step.then(
      (done) => {
        resume.done = done;
      },
      () => {},
    );
    return step;
  }

  /** Waits for the call's next step; a call that ended is let go, its ending kept for a copy of this request. */
  async #advance(request: Resume, parked: Parked, listeners: LiveListeners): Promise<Step> {
    parked.live.listen(listeners);
    try {
      const step = await parked.live.next(request.handle, request.holdMs);
      if (step.kind === 'result') this.#finish(request, parked, { step });
      else parked.expiresAt = Date.now() + this.#limits.ttlMs;
      return step;
    } catch (error) {
      // The upstream call failed or ended: nothing is left to resume.
      this.#finish(request, parked, { error });
      throw error;
    } finally {
      parked.live.listen({});
    }
  }

  #finish(request: Resume, parked: Parked, ending: Ending): void {
    this.#release(request.handle, parked);
    this.#finished.keep(request.handle, {
      owner: request.owner,
      round: request.round,
      answers: request.answers,
      ending,
    });
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
      if (parked.expiresAt >= now || (parked.last !== undefined && parked.last.done === undefined)) continue;
      this.#release(handle, parked);
      parked.live.cancel(`its host did not come back within ${Math.round(this.#limits.ttlMs / 1000)} s`);
    }
    this.#finished.sweep();
  }
}

const GONE = 'call again to start over.';

/** The replica a handle names: the part before its first dot. */
function replicaOf(handle: string): string {
  return handle.slice(0, Math.max(0, handle.indexOf('.')));
}
