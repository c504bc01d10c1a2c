import { isInputRequiredResult, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { AuthorError } from './errors.js';
import type { Principal } from './types.js';

/** The requests middleware runs around: the calls of every surface and their list requests. */
export type MiddlewareMethod =
  | 'tools/call'
  | 'prompts/get'
  | 'resources/read'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list';

/** The action of one answer, by the key of its question. */
export interface AnswerAction {
  readonly key: string;
  readonly action: 'accept' | 'decline' | 'cancel';
}

/** How a round ended, once `await next()` returned: it asked the person, or it completed. */
export type RoundOutcome =
  /** The round ended with an InputRequiredResult asking `keys` (2026-07-28 only). An ask is not an error. */
  | { readonly type: 'ask'; readonly keys: readonly string[] }
  /** The request's final result (a tool's error result included). */
  | { readonly type: 'complete' };

/**
 * What middleware knows about one request (on 2026-07-28 one request is one round of a call).
 * Everything but `round` (on a continuation), `asked`, `outcome` and `result` is known before
 * `await next()`.
 */
export interface RequestContext {
  readonly method: MiddlewareMethod;
  /** The tool or prompt name, or the resource URI; `undefined` for list requests. */
  readonly name: string | undefined;
  /** The call's arguments as the client sent them (`{}` for resources and lists). */
  readonly args: unknown;
  /** `modern` is 2026-07-28 (one request per round); `handshake` the 2025 revisions. */
  readonly era: 'modern' | 'handshake';
  /**
   * The round of the call, from 1. Known before `next()` on a first round and on the handshake era
   * (always 1: its questions travel over the session inside one request); on a 2026-07-28
   * continuation it is read from the sealed state, so it is known once `next()` has opened it
   * (`undefined` before that, and when the state was refused).
   */
  readonly round: number | undefined;
  /** False when the request continues a call (it carries a `requestState`). */
  readonly firstRound: boolean;
  /** The verified user (from the request's auth info, or the stdio user); never what the client claims. */
  readonly user: Principal | undefined;
  /** When the request reached Parley, as `Date.now()`. */
  readonly startedAt: number;
  /** Milliseconds since `startedAt` (monotonic clock). */
  elapsedMs(): number;
  /** The request's `_meta` (where a client puts `traceparent`), as sent. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The official SDK's request context. */
  readonly sdk: ServerContext;
  /**
   * The keys of the questions this request asked: the `inputRequests` keys of an asking round on
   * 2026-07-28, or every question sent over the session during the call on the handshake era.
   */
  readonly asked: readonly string[];
  /**
   * The actions (`accept`, `decline`, `cancel`) of the answers this request carried (2026-07-28: its
   * `inputResponses`; handshake era: the answers that came back over the session), never their content.
   */
  readonly answered: readonly AnswerAction[];
  /** Questions sent to 2025-era clients and not answered yet, across the server (live). */
  readonly pendingQuestions: number;
  /** Set when the inner request returned (not when it threw). */
  readonly outcome: RoundOutcome | undefined;
  /**
   * The request's result. Set it without calling `next()` to answer from middleware (a cache hit);
   * an `InputRequiredResult` cannot be answered that way, since a question carries a state sealed for
   * its own round.
   */
  result: Result | undefined;
}

/**
 * Runs around every request: do something before `await next()`, then read `c.outcome` and
 * `c.result` after it. An error thrown by the handler (or by inner middleware) comes out of
 * `next()`; an ask never does, because asking the person is a result, not a failure.
 *
 * @example
 * server.use(async (c, next) => {
 *   await next();
 *   console.log(c.method, c.name, `round ${c.round}`, c.outcome?.type, `${c.elapsedMs().toFixed(1)} ms`);
 * });
 */
export type Middleware = (c: RequestContext, next: () => Promise<void>) => Promise<void> | void;

/** The facts of one request that the chain does not learn by itself. */
export interface RequestStart {
  readonly method: MiddlewareMethod;
  readonly name: string | undefined;
  readonly args: unknown;
  readonly era: 'modern' | 'handshake';
  readonly user: Principal | undefined;
  readonly sdk: ServerContext;
  readonly pendingQuestions: () => number;
}

/** What the era tells the chain while a request runs (see `EraCall.observe`). */
export interface RoundObserver {
  /** The round's number, once it is known (a continuation's sealed state was opened). */
  round(round: number): void;
  /** Questions sent (`keys`), on either era. */
  asked(keys: readonly string[]): void;
  /** An answer came back over the session (handshake era). */
  answered(answer: AnswerAction): void;
}

/** The innermost step: serves the request and returns its result. */
export type Endpoint = (observer: RoundObserver) => Promise<Result>;

/**
 * Runs `endpoint` inside `chain` (Koa/Hono-style onion: each middleware awaits `next()` once) and
 * returns the request's result.
 */
export function runChain(
  chain: readonly Middleware[],
  start: () => RequestStart,
  endpoint: Endpoint,
): Promise<Result> {
  // No middleware: the endpoint's own promise, with no async frame around it while the call waits,
  // and no facts worked out for middleware that is not there.
  return chain.length === 0 ? endpoint(IGNORE) : runMiddleware(chain, start(), endpoint);
}

function runMiddleware(
  chain: readonly Middleware[],
  start: RequestStart,
  endpoint: Endpoint,
): Promise<Result> {
  const run = new ChainRun(chain, start, endpoint);
  return run.dispatch(0).then(() => run.finish());
}

/**
 * One request going through the chain: what the era observes, and the `c` middleware reads.
 * Classes rather than object literals with getters and spreads: this runs on every round.
 */
class ChainRun implements RoundObserver {
  readonly context: ChainContext;
  readonly began = performance.now();
  roundNumber: number | undefined;
  readonly askedKeys: string[] = [];
  outcome: RoundOutcome | undefined;
  produced: Result | undefined;
  #last = -1;
  /** Read from the request when first asked for (most middleware never does). */
  #answers: AnswerAction[] | undefined;
  readonly #chain: readonly Middleware[];
  readonly #endpoint: Endpoint;
  readonly #sdk: ServerContext;

  constructor(chain: readonly Middleware[], start: RequestStart, endpoint: Endpoint) {
    this.#chain = chain;
    this.#endpoint = endpoint;
    this.#sdk = start.sdk;
    const continuation = start.sdk.mcpReq.requestState<unknown>() !== undefined;
    this.roundNumber = start.era === 'handshake' || !continuation ? 1 : undefined;
    this.context = new ChainContext(start, this, !continuation);
  }

  round(n: number): void {
    this.roundNumber = n;
  }

  asked(keys: readonly string[]): void {
    this.askedKeys.push(...keys);
  }

  answered(answer: AnswerAction): void {
    this.answers.push(answer);
  }

  get answers(): AnswerAction[] {
    this.#answers ??= actionsOf(this.#sdk.mcpReq.inputResponses);
    return this.#answers;
  }

  /** Runs middleware `index` (or the endpoint past the last); plain promises, no async frame per level. */
  dispatch(index: number): Promise<void> {
    if (index <= this.#last)
      return Promise.reject(
        new AuthorError('A middleware called next() twice; call it once (await next()) or not at all.'),
      );
    this.#last = index;
    if (index === this.#chain.length)
      return this.#endpoint(this).then((produced) => this.#produced(produced));
    try {
      return Promise.resolve(this.#chain[index]!(this.context, () => this.dispatch(index + 1)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #produced(produced: Result): void {
    this.produced = produced;
    this.context.result = produced;
    if (isInputRequiredResult(produced)) {
      const keys = Object.keys(produced.inputRequests ?? {});
      this.outcome = { type: 'ask', keys };
      this.asked(keys);
    } else this.outcome = COMPLETE;
  }

  /** The request's result once the chain has run, or the author's mistake that left it without one. */
  finish(): Result {
    const result = this.context.result;
    if (result === undefined)
      throw new AuthorError(
        'The middleware chain ended without a result: a middleware returned without calling next() or setting c.result.',
      );
    if (isInputRequiredResult(result) && result !== this.produced)
      throw new AuthorError(
        'A middleware answered with an InputRequiredResult this round did not produce (a cached question?). A ' +
          'question carries a state sealed for its own round: cache only results whose c.outcome.type is "complete".',
      );
    return result;
  }
}

const COMPLETE: RoundOutcome = { type: 'complete' };

/** The `c` of one request (see {@link RequestContext}). */
class ChainContext implements RequestContext {
  readonly method: MiddlewareMethod;
  readonly name: string | undefined;
  readonly args: unknown;
  readonly era: 'modern' | 'handshake';
  readonly user: Principal | undefined;
  readonly sdk: ServerContext;
  readonly firstRound: boolean;
  readonly startedAt = Date.now();
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  result: Result | undefined = undefined;
  readonly #run: ChainRun;
  readonly #pendingQuestions: () => number;

  constructor(start: RequestStart, run: ChainRun, firstRound: boolean) {
    this.method = start.method;
    this.name = start.name;
    this.args = start.args;
    this.era = start.era;
    this.user = start.user;
    this.sdk = start.sdk;
    this.meta = start.sdk.mcpReq._meta;
    this.firstRound = firstRound;
    this.#run = run;
    this.#pendingQuestions = start.pendingQuestions;
  }

  get round(): number | undefined {
    return this.#run.roundNumber;
  }

  get asked(): readonly string[] {
    return this.#run.askedKeys;
  }

  get answered(): readonly AnswerAction[] {
    return this.#run.answers;
  }

  get pendingQuestions(): number {
    return this.#pendingQuestions();
  }

  get outcome(): RoundOutcome | undefined {
    return this.#run.outcome;
  }

  // A function made when read, not a method: middleware may take it apart (`const { elapsedMs } = c`).
  get elapsedMs(): () => number {
    const began = this.#run.began;
    return () => performance.now() - began;
  }
}

const IGNORE: RoundObserver = { round: () => {}, asked: () => {}, answered: () => {} };

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** The actions of a 2026-07-28 round's `inputResponses` (client input: only the known actions count). */
function actionsOf(responses: Readonly<Record<string, unknown>> | undefined): AnswerAction[] {
  const found: AnswerAction[] = [];
  for (const [key, reply] of Object.entries(responses ?? {})) {
    const action = (reply as { action?: unknown } | null)?.action;
    if (typeof action === 'string' && ACTIONS.has(action))
      found.push({ key, action: action as AnswerAction['action'] });
  }
  return found;
}
