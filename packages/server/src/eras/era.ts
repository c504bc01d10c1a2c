import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { RoundObserver } from '../middleware.js';
import type { ArgumentsSource } from '../registry/missing-args.js';
import type { TaskMode } from '../registry/tools.js';
import type { CallRequest } from '../request/call-request.js';
import type { StateBinding } from '../state/binding.js';
import type { TaskRecord } from '../tasks/task-record.js';
import type { ParleyContext } from '../types.js';

/** One logical call: what is being called, with which arguments. */
export interface CallSpec {
  readonly method: StateBinding['method'];
  readonly target: string;
  readonly args: unknown;
}

/** What runs a call's handler. */
export interface CallHandler<R> {
  /** Runs the handler with this `ctx`; never throws, a failure is a rejection. */
  handler(ctx: ParleyContext): Promise<R>;
}

/** What an era runs for a request: the call found, and the handler that serves it. */
export interface EraCall<R> extends CallHandler<R> {
  readonly spec: CallSpec;
  /** The arguments of the tool called, for `ctx.elicitMissing` (a tool with an input schema). */
  readonly argumentsSource?: ArgumentsSource | undefined;
}

/** A call that may become a task (a tool with `task` in its config). */
export interface TaskCall<R> {
  readonly mode: TaskMode;
  /** Records what the handler ended with, once it ends, on the task it became. */
  settle(task: TaskRecord, outcome: { readonly value: R } | { readonly error: unknown }): Promise<void>;
}

/**
 * One protocol era: how a handler's questions reach the client and how its answers come back. The
 * module builds the request's facts and its ask engine, runs the handler once, and turns what
 * happened into the request's result (an `InputRequiredResult` where the era ends a round with one).
 * A new protocol revision is one more module and one more entry in `run/run-call.ts`.
 */
export interface EraModule {
  /**
   * @param request the request, as its edge recorded it.
   * @param call what it calls: `call.handler(ctx)` runs the handler with the `ctx` the era built (the
   *   call found, rather than a closure around it: a 2025-era call keeps it while the person answers).
   * @param observe told the round's number once it is known, and the keys of the questions sent.
   * @param task for a tool that may run as a task: how, and what to do with the task's outcome.
   */
  run<R>(
    request: CallRequest,
    call: EraCall<R>,
    observe: RoundObserver | undefined,
    task: TaskCall<R> | undefined,
  ): Promise<R | InputRequiredResult | CreateTaskResult>;
}

/** The answer to a call that became a task (`resultType: "task"`, the task's fields at the top). */
export interface CreateTaskResult {
  readonly resultType: 'task';
  readonly taskId: string;
  readonly [field: string]: unknown;
}

const created = new WeakSet<object>();

/** The result that answers a call which became `task`. */
export function createTaskResult(task: TaskRecord): CreateTaskResult {
  const result = task.createResult() as unknown as CreateTaskResult;
  created.add(result);
  return result;
}

/** Whether an era's outcome is the answer of a call that became a task (never a handler's own value). */
export function isCreateTaskResult(value: unknown): value is CreateTaskResult {
  return typeof value === 'object' && value !== null && created.has(value);
}
