import type { Result, ServerContext } from '@modelcontextprotocol/server';
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
  /**
   * The official SDK's request context. A call `server.directToolCalls` serves has none (the SDK
   * does not serve it): reading it there throws. Only middleware marked `directCalls` sees such calls.
   */
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
export interface Middleware {
  (c: RequestContext, next: () => Promise<void>): Promise<void> | void;
  /**
   * True for a middleware that never reads `c.sdk`: it then runs around the calls
   * `server.directToolCalls` serves as well (where `next()` runs the direct handler and `c.sdk`
   * throws), and those calls keep their direct path. While any middleware lacks it, the direct
   * handler is offered no call, since middleware must see every call. `telemetry()` has it.
   *
   * @example
   * server.use(Object.assign(async (c: RequestContext, next: () => Promise<void>) => {
   *   await next();
   *   console.log(c.name, c.outcome?.type);
   * }, { directCalls: true }));
   */
  readonly directCalls?: boolean;
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
