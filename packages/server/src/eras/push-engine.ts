import { SdkError, SdkErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import type { AskItem, AskPoint, ItemResult } from '../ask/ask-item.js';
import { askUntilAnswered } from '../ask/ask-until-answered.js';
import type { FlowWatch, QuestionKind } from '../ask/question-kind.js';
import type { PendingQuestions } from '../context/pending-questions.js';
import { CallCancelledError, QuestionTimeoutError, RoundLimitError } from '../errors.js';
import { type OnceStore, type OnceTimings, runOnce } from '../once/once-store.js';
import type { Json } from '../state/round-state.js';

export interface PushOptions {
  readonly maxTries: number;
  /**
   * Rounds one call may ask, as on 2026-07-28: each ask point is a round, and so is each question
   * asked again after an invalid answer. Past it the call ends with `RoundLimitError`.
   */
  readonly maxRounds: number;
  readonly questionTimeoutMs: number;
  readonly protocolVersion: string;
  /** The logical call's id, the base of `ctx.once` idempotency keys. */
  readonly callId: string;
  /** Sends `notifications/elicitation/complete` for a finished URL flow (2025-11-25 only). */
  readonly notifyComplete: (elicitationId: string) => Promise<void>;
  /** Where questions waiting for an answer are counted. */
  readonly pending: PendingQuestions;
  /** The server's `ctx.once` store, when it has one. */
  readonly once?: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;
  /** Told the key of each question as it is sent. */
  readonly onAsk?: (key: string) => void;
  /** Told the action of each usable answer (never its content). */
  readonly onAnswer?: (key: string, action: 'accept' | 'decline' | 'cancel') => void;
}

/**
 * Serves ask points on the 2025 eras: each question is a real server-to-client request over the
 * session, and the handler simply waits for the answer (no replay). Questions of one batch are
 * sent concurrently.
 */
export class PushEngine {
  readonly #sdk: ServerContext;
  readonly #options: PushOptions;
  #rounds = 0;

  constructor(sdk: ServerContext, options: PushOptions) {
    this.#sdk = sdk;
    this.#options = options;
  }

  async ask(point: AskPoint): Promise<ItemResult[]> {
    this.#countRound();
    return Promise.all(point.items.map((item) => this.#askOne(item)));
  }

  async once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    const key = `${this.#options.callId}.${name}`;
    const once = this.#options.once;
    return once ? ((await runOnce(once.store, key, () => fn(key), once.timings)) as T) : fn(key);
  }

  #askOne(item: AskItem): Promise<ItemResult> {
    this.#options.onAsk?.(item.key);
    // The watch waits until a flow settles, so "not settled" cannot come back here; if a kind ever
    // returns it, the question is asked again, as on 2026-07-28.
    return askUntilAnswered(item, {
      send: (kind, question, message) => this.#options.pending.track(this.#send(kind, question, message)),
      waitForFlow: this.#waitForFlow,
      maxTries: this.#options.maxTries,
      malformed: (_question, _kind, problem) =>
        new Error(`The client answered with something unusable: ${problem}.`),
      onAnswer: this.#options.onAnswer,
      beforeAskingAgain: () => this.#countRound(),
    });
  }

  #countRound(): void {
    if (this.#rounds + 1 > this.#options.maxRounds) throw new RoundLimitError(this.#options.maxRounds);
    this.#rounds++;
  }

  /** After consent, the server waits on the session until the flow's page settles it. */
  readonly #waitForFlow: FlowWatch = async (flow) => {
    const check = await flow.kit.waitFor(
      flow.id,
      flow.principal,
      this.#sdk.mcpReq.signal,
      this.#options.questionTimeoutMs,
    );
    if (check.status === 'done' && this.#options.protocolVersion === '2025-11-25')
      await this.#options.notifyComplete(flow.id).catch(() => {});
    return check;
  };

  /**
   * Sends one question with `ctx.mcpReq.send`, which ties it to the call being served (on HTTP it
   * travels on that POST's stream, as SEP-2260 requires, not on the optional GET stream) and leaves
   * the answer unchecked, so an invalid answer reaches the kind's check and is asked again with its
   * reason (`elicitInput` sends unrelated and turns such an answer into a -32602 that ends the call).
   */
  #send(kind: QuestionKind, item: AskItem, message: string): Promise<unknown> {
    const options = { timeout: this.#options.questionTimeoutMs, signal: this.#sdk.mcpReq.signal };
    let sent: Promise<unknown>;
    try {
      const { resultSchema, ...request } = kind.request.handshake(
        item,
        message,
        this.#options.protocolVersion,
      );
      sent = resultSchema
        ? this.#sdk.mcpReq.send(request, resultSchema, options)
        : this.#sdk.mcpReq.send(request, options);
    } catch (error) {
      return Promise.reject(this.#failure(kind, error));
    }
    // `.catch`, not `try { return await }`: no suspended frame per pending question.
    return sent.catch((error: unknown) => {
      throw this.#failure(kind, error);
    });
  }

  /** What a failed question means for the call. */
  #failure(kind: QuestionKind, error: unknown): unknown {
    // The SDK reports an aborted call as a request timeout too; only the call's own signal tells them apart.
    const signal = this.#sdk.mcpReq.signal;
    if (signal.aborted) return new CallCancelledError(signal.reason);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new QuestionTimeoutError(this.#options.questionTimeoutMs);
    }
    return kind.refusal?.(error) ?? error;
  }
}
