import { TooManyInvalidAnswersError } from '../errors.js';
import type { FlowCheck } from '../flows/flow-kit.js';
import type { AskItem, ItemResult } from './ask-item.js';
import { kindOf, questionMessage } from './kind-table.js';
import type { FlowRef, QuestionKind } from './question-kind.js';

/** How an engine that waits for each reply (2025 sessions, tasks) puts one question to the client. */
export interface WaitingAsk {
  /** Sends the question with this message (it carries the reason the last answer was refused). */
  readonly send: (kind: QuestionKind, item: AskItem, message: string) => Promise<unknown>;
  /** Told that what `send` returned settled with a reply. */
  readonly replied?: (() => void) | undefined;
  /** Told that what `send` returned failed; returns what the call fails with (default: `error`). */
  readonly failed?: ((kind: QuestionKind, error: unknown) => unknown) | undefined;
  /** After consent to a URL, waits until the flow's page settles it. */
  waitForFlow(flow: FlowRef): Promise<FlowCheck>;
  readonly maxTries: number;
  /** The error for a reply that is not even the shape of an answer. */
  readonly malformed: (item: AskItem, kind: QuestionKind, problem: string) => Error;
  /** Told the action of each usable answer (never its content). */
  readonly onAnswer?: ((key: string, action: 'accept' | 'decline' | 'cancel') => void) | undefined;
  /** Called before an invalid answer is asked again (the 2025 eras count that as a round). */
  readonly beforeAskingAgain?: (() => void) | undefined;
  /**
   * When sending failed: the answer to the question asked another way (a form the client refused to
   * show goes to a page of the server), or `undefined` to fail.
   */
  readonly fallback?:
    | ((item: AskItem, kind: QuestionKind, error: unknown) => Promise<ItemResult> | undefined)
    | undefined;
  /**
   * Keeps the question's result under the `fingerprint` askUntilAnswered was given (the 2025
   * engine's journal, so a call parked later can be resumed); called once, with the item asked.
   */
  readonly keep?: ((fingerprint: number, item: AskItem, result: ItemResult) => void) | undefined;
}

/**
 * Asks one question until it has a usable answer: an invalid answer is asked again with its
 * reason, up to `maxTries`; a URL flow the person consented to is waited on, and asked again when
 * it did not settle.
 *
 * A chain of promises rather than an `await` loop: while the person answers, a question holds one
 * `.then` of the reply, not a suspended async frame with all its registers. Given a `fingerprint`,
 * the result is kept with `how.keep` as it comes, rather than by a `.then` of the caller's: one
 * promise link fewer per pending question.
 */
export function askUntilAnswered(item: AskItem, how: WaitingAsk, fingerprint?: number): Promise<ItemResult> {
  try {
    return put(item, how, kindOf(item), 0, undefined, fingerprint);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Sends the question (with the reason the last answer was refused), then checks the reply. */
function put(
  item: AskItem,
  how: WaitingAsk,
  kind: QuestionKind,
  tries: number,
  reason: string | undefined,
  fingerprint: number | undefined,
): Promise<ItemResult> {
  // One `.then` per question sent, its two handlers sharing one context: all of it is held for as
  // long as the person takes to answer.
  return how.send(kind, item, questionMessage(item, reason)).then(
    (reply) => {
      how.replied?.();
      return check(item, how, kind, tries, reply, fingerprint);
    },
    (error: unknown) => {
      const failure = how.failed ? how.failed(kind, error) : error;
      const instead = how.fallback?.(item, kind, error);
      if (!instead) throw failure;
      // Answered another way (a page): kept as the question asked here.
      return fingerprint === undefined
        ? instead
        : instead.then((result) => kept(item, how, fingerprint, result));
    },
  );
}

/** What a reply leads to: its result, the flow it started, or the question asked again. */
function check(
  item: AskItem,
  how: WaitingAsk,
  kind: QuestionKind,
  tries: number,
  reply: unknown,
  fingerprint: number | undefined,
): ItemResult | Promise<ItemResult> {
  const checked = kind.check(item, reply);
  if (checked.status === 'ok') {
    const action = (checked.result as { action?: unknown } | null)?.action;
    if (action === 'accept' || action === 'decline' || action === 'cancel') how.onAnswer?.(item.key, action);
    if (!kind.settle) return kept(item, how, fingerprint, checked.result);
    return kind
      .settle(item, checked.result, (flow) => how.waitForFlow(flow))
      .then((settled) =>
        settled !== undefined
          ? kept(item, how, fingerprint, settled)
          : put(item, how, kind, tries, undefined, fingerprint),
      );
  }
  if (checked.status === 'malformed') throw how.malformed(item, kind, checked.problem);
  const failed = tries + 1;
  if (failed >= how.maxTries) throw new TooManyInvalidAnswersError(failed, checked.reason);
  how.beforeAskingAgain?.();
  return put(item, how, kind, failed, checked.reason, fingerprint);
}

/** The question's result, kept first when it has a fingerprint to be kept under. */
function kept(
  item: AskItem,
  how: WaitingAsk,
  fingerprint: number | undefined,
  result: ItemResult,
): ItemResult {
  if (fingerprint !== undefined) how.keep?.(fingerprint, item, result);
  return result;
}
