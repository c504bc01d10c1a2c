import type { AskItem, AskPoint, ItemResult } from '../ask/ask-item.js';
import { askUntilAnswered } from '../ask/ask-until-answered.js';
import { kindOf } from '../ask/kind-table.js';
import type { FlowWatch } from '../ask/question-kind.js';
import { QuestionTimeoutError, ToolError } from '../errors.js';
import { type OnceStore, type OnceTimings, runOnce } from '../once/once-store.js';
import type { Json } from '../state/round-state.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { pause } from './pause.js';

/**
 * Serves ask points inside a task (the tasks extension): each question parks the task in
 * `input_required` with the question in `inputRequests`, and the handler waits until `tasks/update`
 * answers it: the same `ctx.elicit` as on every era. The questions of one batch are open at once and
 * may be answered one at a time. An invalid answer is asked again with its reason.
 */
export class TaskEngine {
  readonly #task: TaskRecord;
  readonly #maxTries: number;
  readonly #callId: string;
  readonly #questionTimeoutMs: number;
  readonly #once: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;

  constructor(
    task: TaskRecord,
    options: {
      readonly maxTries: number;
      readonly callId: string;
      readonly questionTimeoutMs: number;
      /** The server's `ctx.once` store, when it has one (a re-sent round may start a second task). */
      readonly once?: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;
    },
  ) {
    this.#task = task;
    this.#maxTries = options.maxTries;
    this.#callId = options.callId;
    this.#questionTimeoutMs = options.questionTimeoutMs;
    this.#once = options.once;
  }

  ask(point: AskPoint): Promise<ItemResult[]> {
    return Promise.all(point.items.map((item) => this.#askOne(item)));
  }

  async once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    const key = `${this.#callId}.${name}`;
    const once = this.#once;
    return once ? ((await runOnce(once.store, key, () => fn(key), once.timings)) as T) : fn(key);
  }

  /** `AskEngine`: a task has no rounds to end: it waits `afterMs`, or until the task is cancelled. */
  yieldRound(_fp: number, _label: string, afterMs: number): Promise<void> {
    return pause(afterMs, this.#task.abort.signal);
  }

  /** After consent, the task waits until the flow's page settles it (or the task is cancelled). */
  readonly #waitForFlow: FlowWatch = (flow) =>
    flow.kit.waitFor(flow.id, flow.principal, this.#task.abort.signal, this.#questionTimeoutMs);

  #askOne(item: AskItem): Promise<ItemResult> {
    // A task's questions travel in the task: one answered by a link in a result cannot be waited on.
    const link = kindOf(item).outOfBand?.(item);
    if (link)
      return Promise.reject(
        new ToolError(
          `This app cannot show the question "${link.message}", so it is on a page: ${link.url} ` +
            'Answer there, then call again.',
        ),
      );
    return askUntilAnswered(item, {
      send: (kind, question, message) =>
        this.#task.waitFor(question.key, kind.request.modern(question, message), {
          ms: this.#questionTimeoutMs,
          error: () => new QuestionTimeoutError(this.#questionTimeoutMs),
        }),
      waitForFlow: this.#waitForFlow,
      maxTries: this.#maxTries,
      malformed: (question, kind, problem) =>
        new ToolError(`The answer to '${question.key}' is not ${kind.expected}: ${problem}.`),
    });
  }
}
