import { ProtocolError } from '@modelcontextprotocol/client';
import { PARLEY_KEY_META } from '@parley/core';
import { type Json, ToolError } from '@parley/server';
import type { LiveListeners } from '../leg/host-facts.js';
import { MAX_QUESTIONS_PER_ROUND } from '../leg/limits.js';
import type { Step, UpstreamAnswer, UpstreamRequest } from '../leg/step.js';

/** A round of a live call was answered twice, or answers came for a round it is not at. */
export class RoundAnsweredError extends Error {
  constructor(round: number, at: number) {
    super(
      round < at
        ? `round ${round} of this call was answered already (it is at round ${at}); a round is answered once`
        : `this call has not asked round ${round} yet (it is at round ${at})`,
    );
    this.name = 'RoundAnsweredError';
  }
}

interface Waiting {
  readonly key: string;
  readonly request: UpstreamRequest;
  readonly answer: (answer: UpstreamAnswer) => void;
}

/**
 * Questions that arrive together are asked in one round: a round is handed out once no question has
 * come for `QUIET_MS` (a server sends the questions of one moment back to back, on one stream), or
 * `GATHER_MS` after the round began to gather, whichever is first. A fixed wait of `GATHER_MS` cost
 * every round of this pairing its full length (bench (h): 9 ms a round at concurrency 1).
 */
const QUIET_MS = 2;
const GATHER_MS = 15;

/**
 * A call to a 2025-era upstream, held open in the gateway: the upstream asks its questions as
 * server-to-client requests while the call waits, and the gateway hands them on round by round (a
 * 2026-07-28 host gets them in an `InputRequiredResult` and comes back with the answers; a 2025
 * host is asked over its own session). The questions of one moment are gathered into one round;
 * each round is answered once.
 */
export class LiveCall {
  /** Rounds handed out so far. */
  #round = 0;
  #answered = 0;
  /** Questions not handed out yet, and questions handed out in the current round. */
  #fresh: Waiting[] = [];
  #asked: Waiting[] = [];
  #outcome: { readonly result: { readonly [key: string]: Json } } | { readonly error: unknown } | undefined;
  #wake: (() => void) | undefined;
  #listeners: LiveListeners = {};
  #keys = 0;
  /** When the newest question came (`Date.now()`). */
  #freshAt = 0;
  readonly #abort = new AbortController();
  readonly #urls = new Set<string>();

  /**
   * @param start sends the call upstream with this call's signal; its promise is the upstream's
   *   answer (or failure).
   * @param revision the 2025 revision the call's session speaks.
   */
  constructor(
    start: (signal: AbortSignal) => Promise<unknown>,
    readonly revision: string,
  ) {
    start(this.#abort.signal).then(
      (result) => this.#end({ result: cleanResult(result) }),
      (error: unknown) => this.#end({ error }),
    );
  }

  /** Whether the upstream call is over (answered, failed or cancelled). */
  get ended(): boolean {
    return this.#outcome !== undefined;
  }

  /** The round whose answers come next. */
  get round(): number {
    return this.#round;
  }

  /** Who hears the call's progress, logs and URL completions now (the handler run serving the host). */
  listen(listeners: LiveListeners): void {
    this.#listeners = listeners;
  }

  /** Cancels the upstream call (the host went away, or the parked call expired). */
  cancel(reason: string): void {
    this.#abort.abort(new Error(reason));
    for (const waiting of [...this.#asked, ...this.#fresh])
      waiting.answer({ error: { code: -32800, message: `Cancelled: ${reason}` } });
    this.#asked = [];
    this.#fresh = [];
  }

  /** A server-to-client request of the upstream for this call; resolves with what the host answered. */
  incoming(request: UpstreamRequest): Promise<UpstreamAnswer> {
    return new Promise((answer) => {
      const named = request.params?._meta;
      const wanted =
        typeof named === 'object' && named !== null && !Array.isArray(named)
          ? named[PARLEY_KEY_META]
          : undefined;
      const taken = new Set([...this.#asked, ...this.#fresh].map((waiting) => waiting.key));
      const key =
        typeof wanted === 'string' && /^[\w.-]{1,64}$/.test(wanted) && !taken.has(wanted)
          ? wanted
          : this.#newKey(taken);
      if (request.params?.mode === 'url' && typeof request.params.elicitationId === 'string')
        this.#urls.add(request.params.elicitationId);
      this.#fresh.push({ key, request: withoutMeta(request), answer });
      this.#freshAt = Date.now();
      this.#wake?.();
    });
  }

  /** The upstream says a URL question's flow finished; passed on if it was one of this call's. */
  urlComplete(elicitationId: string): boolean {
    if (!this.#urls.delete(elicitationId)) return false;
    this.#listeners.urlComplete?.(elicitationId);
    return true;
  }

  progress(params: { progress: number; total?: number; message?: string }): void {
    this.#listeners.progress?.(params);
  }

  log(params: { level: string; data: unknown; logger?: string }): void {
    this.#listeners.log?.(params);
  }

  /**
   * Waits for what the call does next: its result, its next questions (gathered for a moment, so
   * that questions sent together are asked together), or, after `holdMs` with neither, `wait`.
   */
  async next(handle: string, holdMs: number): Promise<Step> {
    const deadline = Date.now() + holdMs;
    while (true) {
      if (this.#fresh.length > 0) {
        await this.#gathered();
        // The call ended (or was cancelled) meanwhile: its questions are moot.
        if (this.#fresh.length === 0) continue;
        if (this.#fresh.length > MAX_QUESTIONS_PER_ROUND) {
          const count = this.#fresh.length;
          this.cancel('it asked too many questions at once');
          throw new ToolError(
            `The upstream asked ${count} questions at once; the gateway passes on at most ${MAX_QUESTIONS_PER_ROUND}, so the call was stopped.`,
          );
        }
        this.#asked = this.#fresh;
        this.#fresh = [];
        this.#round++;
        return {
          kind: 'ask',
          requests: Object.fromEntries(this.#asked.map((waiting) => [waiting.key, waiting.request])),
          via: { kind: 'live', handle, round: this.#round, revision: this.revision },
        };
      }
      const outcome = this.#outcome;
      if (outcome !== undefined) {
        if ('error' in outcome) throw outcome.error;
        return { kind: 'result', result: outcome.result };
      }
      const left = deadline - Date.now();
      if (left <= 0)
        return { kind: 'wait', via: { kind: 'live', handle, round: this.#round, revision: this.revision } };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 2_147_483_647));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = undefined;
    }
  }

  /** Waits until the questions of this moment are in: `QUIET_MS` without a new one, `GATHER_MS` at most. */
  async #gathered(): Promise<void> {
    const until = Date.now() + GATHER_MS;
    while (this.#fresh.length > 0) {
      const now = Date.now();
      const wait = Math.min(this.#freshAt + QUIET_MS - now, until - now);
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      // Timers run before the I/O a process kept off its core has waiting: what already came is
      // read (the poll phase) before the round counts as quiet (the check phase).
      const seen = this.#fresh.length;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#fresh.length === seen || Date.now() >= until) return;
    }
  }

  /** Hands the host's answers for `round` to the questions of that round (once per round). */
  answer(round: number, answers: Readonly<Record<string, UpstreamAnswer>>): void {
    if (round !== this.#round || this.#answered >= round) throw new RoundAnsweredError(round, this.#round);
    this.#answered = round;
    const asked = this.#asked;
    this.#asked = [];
    for (const waiting of asked)
      waiting.answer(
        answers[waiting.key] ??
          (waiting.request.method === 'elicitation/create'
            ? { result: { action: 'cancel' } }
            : { error: { code: -32603, message: 'The host gave no answer to this request' } }),
      );
  }

  #newKey(taken: ReadonlySet<string>): string {
    let key: string;
    do key = `q${++this.#keys}`;
    while (taken.has(key));
    return key;
  }

  #end(outcome: { readonly result: { readonly [key: string]: Json } } | { readonly error: unknown }): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    // Questions still open when the call ended are moot.
    for (const waiting of [...this.#asked, ...this.#fresh])
      waiting.answer({ error: { code: -32800, message: 'The call ended' } });
    this.#asked = [];
    this.#fresh = [];
    this.#wake?.();
  }
}

/** An upstream answer as the JSON a step journals (the SDK's result object, own fields only). */
function cleanResult(result: unknown): { readonly [key: string]: Json } {
  return JSON.parse(JSON.stringify(result ?? {})) as { readonly [key: string]: Json };
}

/** The request without its `_meta` (the upstream's own bookkeeping: keys, progress tokens). */
function withoutMeta(request: UpstreamRequest): UpstreamRequest {
  if (request.params === undefined || !('_meta' in request.params)) return request;
  const { _meta: _dropped, ...params } = request.params;
  return { method: request.method, params };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A JSON-RPC error to answer an upstream's request with. */
export function answerError(answer: UpstreamAnswer): ProtocolError | undefined {
  return 'error' in answer ? new ProtocolError(answer.error.code, answer.error.message) : undefined;
}
