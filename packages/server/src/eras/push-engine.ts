import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { AskItem, AskPoint, ItemResult } from '../ask/ask-item.js';
import { askUntilAnswered, type WaitingAsk } from '../ask/ask-until-answered.js';
import type { CallHost } from '../ask/call-host.js';
import { fingerprint } from '../ask/fingerprint.js';
import { kindOf } from '../ask/kind-table.js';
import type { FlowRef, QuestionKind } from '../ask/question-kind.js';
import { type WaitingCall, waitingCallOf } from '../context/waiting-progress.js';
import { CallCancelledError, QuestionTimeoutError, RoundLimitError } from '../errors.js';
import type { FlowCheck } from '../flows/flow-kit.js';
import type { RoundObserver } from '../middleware.js';
import { runOnce } from '../once/once-store.js';
import type { CallRequest } from '../request/call-request.js';
import type { Json, RoundState } from '../state/round-state.js';
import { Journal } from './journal.js';
import { PARK } from './parked.js';
import { pause } from './pause.js';
import { lookOnce } from './replay-engine.js';

/** A settled question's result, or its failure thrown (the call's own failure before a park). */
function settledValue<T>(
  outcome: PromiseSettledResult<T>,
  _index: number,
  outcomes: PromiseSettledResult<T>[],
): T {
  if (outcome.status === 'fulfilled') return outcome.value;
  const failure = outcomes.find((other) => other.status === 'rejected' && other.reason !== PARK);
  throw (failure as PromiseRejectedResult | undefined)?.reason ?? outcome.reason;
}

/**
 * Where a question the client refused to show goes instead; `undefined` result means nowhere. Given
 * the engine and the data {@link PushEngine.onRefused} was given with it (a module function and its
 * data, rather than a closure per call: a 2025-era call keeps it while the person answers).
 */
export type PageFallback<T> = (
  item: AskItem,
  kind: QuestionKind,
  engine: PushEngine,
  data: T,
  why: FallbackReason,
) => Promise<AskItem> | undefined;

/**
 * Why a question goes another way: the client answered it with an error of its own (`refused`), or
 * it was still unanswered when the host's profile says the host gives up (`host-limit`).
 */
export type FallbackReason = 'refused' | 'host-limit';

/** A question not sent at all: the host's time limit had (nearly) passed already. */
class HostLimitReached extends Error {
  constructor(readonly ms: number) {
    super('The host gives up on questions sooner than this one could be answered.');
  }
}

/**
 * Whether a question failed because the client answered it with an error of its own (it does not
 * implement elicitation/create, or could not show this form), not because the call was cancelled,
 * timed out, or the connection closed.
 */
function isClientRefusal(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return false;
  return error instanceof ProtocolError;
}

/**
 * Serves ask points on the 2025 eras: each question is a real server-to-client request over the
 * session, and the handler simply waits for the answer (no replay). Questions of one batch are
 * sent concurrently.
 *
 * The engine is also how `askUntilAnswered` puts its questions (it is the {@link WaitingAsk}):
 * a pending question holds the engine and nothing built for it alone.
 */
export class PushEngine implements WaitingAsk {
  readonly #request: CallRequest;
  /** Told the key of each question as it is sent, and the action of each usable answer. */
  readonly #observe: RoundObserver | undefined;
  readonly #protocolVersion: string;
  /** The logical call's id, the base of `ctx.once` idempotency keys. */
  readonly #callId: string;
  /** Progress reminders while a question waits, when the request carries a `progressToken`. */
  readonly #waiting: WaitingCall | undefined;
  #rounds: number;
  /**
   * What each ask point and `ctx.once` gave, so a call parked at a page (its link in the result)
   * goes on where it stopped when it comes again: a resumed call replays it first. Made when the
   * call first has something to journal (or resumes one): a call waiting on its first question
   * holds none.
   */
  #journal: Journal | undefined;
  #parked: readonly AskItem[] | undefined;
  #fallback: PageFallback<never> | undefined;
  #fallbackData: unknown;
  /** The call's client, when a host profile knows it: its time limit moves a question to a page. */
  readonly #host: CallHost | undefined;
  readonly #startedAt: number;
  /** Questions sent with the host's time limit rather than the server's (their timeout means "to a page"). */
  readonly #hostLimited = new WeakSet<AskItem>();

  /**
   * @param resume the state of a call parked earlier, which this call goes on from.
   * @param host the call's client, when a host profile knows it.
   */
  constructor(
    request: CallRequest,
    observe: RoundObserver | undefined,
    protocolVersion: string,
    callId: string,
    resume?: RoundState,
    host?: CallHost,
  ) {
    this.#request = request;
    this.#observe = observe;
    this.#protocolVersion = protocolVersion;
    this.#callId = callId;
    this.#rounds = resume?.rounds ?? 0;
    this.#journal = resume ? new Journal(resume.journal) : undefined;
    this.#waiting = waitingCallOf(request.app.waitingReminders, request.sdk);
    this.#host = host;
    this.#startedAt = Date.now();
  }

  /** `AskEngine`: the handler's own progress, which the reminders go on from. */
  progressed(progress: number, total: number | undefined): void {
    this.#waiting?.reported(progress, total);
  }

  get maxTries(): number {
    return this.#request.app.maxTries;
  }

  /** The questions the call parked at (answered by links in its result), once it did. */
  get parked(): readonly AskItem[] | undefined {
    return this.#parked;
  }

  /** The call's state so far, to park it with (its journal, its rounds). */
  state(notified: number): RoundState {
    return {
      callId: this.#callId,
      rounds: this.#rounds,
      journal: this.#journal?.entries ?? [],
      pending: undefined,
      ...(notified > 0 && { notified }),
    };
  }

  /** Sets where a question the client refused to show goes instead (a page of the server). */
  onRefused<T>(fallback: PageFallback<T>, data: T): void {
    this.#fallback = fallback as PageFallback<never>;
    this.#fallbackData = data;
  }

  ask(point: AskPoint): Promise<ItemResult[]> {
    try {
      const replayed = this.#journal?.next(point.fingerprint, point.label);
      if (replayed !== undefined) return this.#decodeAll(point, replayed);
      this.#countRound();
    } catch (error) {
      return Promise.reject(error);
    }
    const asked = point.items.map((item) => this.#askOne(item));
    // Questions answered by links park the call only once each of them was looked at, so the
    // result lists every link of the batch at once.
    const all = point.items.some((item) => kindOf(item).outOfBand?.(item))
      ? Promise.allSettled(asked).then((outcomes) => outcomes.map(settledValue))
      : Promise.all(asked);
    return all.then((results) => {
      const record = Object.fromEntries(
        point.items.map((item, index) => [item.key, kindOf(item).encode(item, results[index])]),
      );
      this.#journaled().push(point.fingerprint, record);
      return results;
    });
  }

  /** A single question: its own promise, no `Promise.all` around it (see `AskEngine.askOne`). */
  askOne(point: AskPoint): Promise<ItemResult> {
    const item = point.items[0]!;
    try {
      const replayed = this.#journal?.next(point.fingerprint, point.label);
      if (replayed !== undefined) return Promise.resolve(kindOf(item).decode(item, replayed));
      this.#countRound();
    } catch (error) {
      return Promise.reject(error);
    }
    // Journaled as it is answered (askUntilAnswered keeps it), with no `.then` of its own here: a
    // pending question holds one promise link fewer.
    return this.#askOne(item, point.fingerprint);
  }

  #journaled(): Journal {
    this.#journal ??= new Journal();
    return this.#journal;
  }

  /** `AskEngine`: the fingerprint the journal replays next. */
  upNext(): number | undefined {
    return this.#journal?.upNext;
  }

  async once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    const fp = fingerprint('once', name);
    const replayed = this.#journal?.next(fp, `ctx.once('${name}')`);
    if (replayed !== undefined) return replayed as T;
    const key = `${this.#callId}.${name}`;
    const once = this.#request.app.once;
    const value = once ? ((await runOnce(once.store, key, () => fn(key), once.timings)) as T) : await fn(key);
    // Journaled as JSON, as on 2026-07-28: a resumed call reads exactly what this run saw.
    const json = JSON.parse(JSON.stringify(value ?? null)) as T;
    this.#journaled().push(fp, json);
    return value;
  }

  /**
   * `AskEngine`: a round that asks nothing; a 2025 call has no rounds to end, so it waits `afterMs`
   * (journaled, so a call parked later replays past it).
   */
  async yieldRound(fp: number, label: string, afterMs: number): Promise<void> {
    if (this.#journal?.next(fp, label) !== undefined) return;
    await pause(afterMs, this.#request.sdk.mcpReq.signal);
    this.#journaled().push(fp, 1);
  }

  #decodeAll(point: AskPoint, replayed: Json): Promise<ItemResult[]> {
    const record = replayed as Record<string, Json>;
    return Promise.all(point.items.map((item) => kindOf(item).decode(item, record[item.key] ?? null)));
  }

  /** One question; given its point's `fingerprint`, its result is journaled (see {@link PushEngine.keep}). */
  #askOne(item: AskItem, fingerprint?: number): Promise<ItemResult> {
    const kind = kindOf(item);
    if (kind.outOfBand?.(item)) return this.#lookOutOfBand(item, kind, fingerprint);
    this.#observe?.asked([item.key]);
    // The watch waits until a flow settles, so "not settled" cannot come back here; if a kind ever
    // returns it, the question is asked again, as on 2026-07-28.
    return askUntilAnswered(item, this, fingerprint);
  }

  /** `WaitingAsk`: journals a single question's result under its point's fingerprint. */
  keep(fingerprint: number, item: AskItem, result: ItemResult): void {
    this.#journaled().push(fingerprint, kindOf(item).encode(item, result));
  }

  /** An item answered by a link in the result: answered by now, or the call parks. */
  async #lookOutOfBand(item: AskItem, kind: QuestionKind, fingerprint?: number): Promise<ItemResult> {
    const settled = await kind.settle!(item, { action: 'accept' }, lookOnce);
    if (settled !== undefined) {
      if (fingerprint !== undefined) this.keep(fingerprint, item, settled);
      return settled;
    }
    this.#parked = [...(this.#parked ?? []), item];
    throw PARK;
  }

  /**
   * `WaitingAsk`: a question the client failed to show, or one its host would give up on, goes to a
   * page of the server instead.
   */
  fallback(item: AskItem, kind: QuestionKind, error: unknown): Promise<ItemResult> | undefined {
    if (!this.#fallback) return undefined;
    const why: FallbackReason | undefined = isClientRefusal(error, this.#request.sdk.mcpReq.signal)
      ? 'refused'
      : this.#hostGaveUp(item, error)
        ? 'host-limit'
        : undefined;
    if (why === undefined) return undefined;
    return this.#fallback(item, kind, this, this.#fallbackData as never, why)?.then((instead) =>
      this.#askOne(instead),
    );
  }

  /** Whether a question failed because the host's time limit came, not the server's or the call's. */
  #hostGaveUp(item: AskItem, error: unknown): boolean {
    if (!this.#hostLimited.has(item) || this.#request.sdk.mcpReq.signal.aborted) return false;
    return (
      error instanceof HostLimitReached ||
      (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    );
  }

  /**
   * How long to wait for the answer to a question sent now: the server's `questionTimeoutMs`, or
   * less where the call's host gives up sooner (a form then goes to a page before it does). Returns
   * the deadline too when it is the host's.
   */
  #timeoutFor(kind: QuestionKind, item: AskItem): { readonly ms: number; readonly deadline?: number } {
    const server = this.#request.app.questionTimeoutMs;
    const now = Date.now();
    const deadline = kind.name === 'form' ? this.#host?.questionDeadline(this.#startedAt, now) : undefined;
    if (deadline === undefined || deadline - now >= server) {
      this.#hostLimited.delete(item);
      return { ms: server };
    }
    this.#hostLimited.add(item);
    return { ms: deadline - now, deadline };
  }

  /** `WaitingAsk`: a reply that is not even the shape of an answer. */
  malformed(_item: AskItem, _kind: QuestionKind, problem: string): Error {
    return new Error(`The client answered with something unusable: ${problem}.`);
  }

  /** `WaitingAsk`: told the action of each usable answer (never its content). */
  onAnswer(key: string, action: 'accept' | 'decline' | 'cancel'): void {
    this.#observe?.answered({ key, action });
  }

  /** `WaitingAsk`: an invalid answer asked again counts as a round, as on 2026-07-28. */
  beforeAskingAgain(): void {
    this.#countRound();
  }

  #countRound(): void {
    const { maxRounds } = this.#request.app;
    if (this.#rounds + 1 > maxRounds) throw new RoundLimitError(maxRounds);
    this.#rounds++;
  }

  /** `WaitingAsk`: after consent, the server waits on the session until the flow's page settles it. */
  async waitForFlow(flow: FlowRef): Promise<FlowCheck> {
    const { sdk, server, app } = this.#request;
    this.#waiting?.began();
    let check: FlowCheck;
    try {
      check = await flow.kit.waitFor(flow.id, flow.principal, sdk.mcpReq.signal, app.questionTimeoutMs);
    } finally {
      this.#waiting?.ended();
    }
    // Sends `notifications/elicitation/complete` for a finished URL flow (2025-11-25 only).
    if (check.status === 'done' && this.#protocolVersion === '2025-11-25')
      await server
        .createElicitationCompletionNotifier(flow.id, { relatedRequestId: sdk.mcpReq.id })()
        .catch(() => {});
    return check;
  }

  /**
   * Sends one question with `ctx.mcpReq.send` (`WaitingAsk`), counted as pending until it settles.
   * Its failure reaches `failed` as it came (no `.catch` here: one `.then` in askUntilAnswered is all
   * a pending question holds).
   * `mcpReq.send` ties it to the call being served (on HTTP it travels on that POST's stream, as
   * SEP-2260 requires, not on the optional GET stream) and leaves the answer unchecked, so an invalid
   * answer reaches the kind's check and is asked again with its reason (`elicitInput` sends unrelated
   * and turns such an answer into a -32602 that ends the call).
   */
  send(kind: QuestionKind, item: AskItem, message: string): Promise<unknown> {
    const { sdk, app } = this.#request;
    const timeout = this.#timeoutFor(kind, item);
    // Pending from here until `replied` or `failed` (askUntilAnswered calls one of them, once).
    app.pendingQuestions.sent();
    this.#waiting?.began(timeout.deadline);
    const options = { timeout: timeout.ms, signal: sdk.mcpReq.signal };
    // Less than a second left before the host gives up: the page at once, rather than a question it drops.
    if (timeout.deadline !== undefined && timeout.ms < 1000)
      return Promise.reject(new HostLimitReached(Math.max(0, timeout.ms)));
    try {
      const { resultSchema, ...request } = kind.request.handshake(item, message, this.#protocolVersion);
      return resultSchema
        ? sdk.mcpReq.send(request, resultSchema, options)
        : sdk.mcpReq.send(request, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `WaitingAsk`: a question sent has its reply. */
  replied(): void {
    this.#request.app.pendingQuestions.settled();
    this.#waiting?.ended();
  }

  /** `WaitingAsk`: a question sent failed; what that means for the call. */
  failed(kind: QuestionKind, error: unknown): unknown {
    this.#request.app.pendingQuestions.settled();
    this.#waiting?.ended();
    return this.#failure(kind, error);
  }

  /** What a failed question means for the call. */
  #failure(kind: QuestionKind, error: unknown): unknown {
    // The SDK reports an aborted call as a request timeout too; only the call's own signal tells them apart.
    const signal = this.#request.sdk.mcpReq.signal;
    if (signal.aborted) return new CallCancelledError(signal.reason);
    if (error instanceof HostLimitReached) return new QuestionTimeoutError(error.ms);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new QuestionTimeoutError(this.#request.app.questionTimeoutMs);
    }
    return kind.refusal?.(error) ?? error;
  }
}
