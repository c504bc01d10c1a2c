import type { InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import type { RoundObserver } from '../middleware.js';
import type { TaskMode } from '../registry/tools.js';
import type { StateBinding } from '../state/binding.js';
import type { TaskRecord } from '../tasks/task-record.js';
import type { ParleyContext, Principal } from '../types.js';

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

/** One request's call, as the dispatcher hands it to the module of its protocol era. */
export interface EraCall<R> {
  readonly app: App;
  /** The official SDK's context of the request being served. */
  readonly sdk: ServerContext;
  /** The SDK server of the serving unit (a 2025 session's negotiated facts live there). */
  readonly server: Server;
  readonly call: CallSpec;
  /** The verified user: from the request's auth info, else the stdio user. */
  readonly user: Principal | undefined;
  /** Whom the call's budgets (its tasks) count against: the user, or an anonymous caller's address. */
  readonly caller: string;
  /** How the call arrived (question pages check who opens them only over HTTP). */
  readonly transport: 'stdio' | 'http';
  /** Told the round's number once it is known, and the keys of the questions sent (middleware facts). */
  readonly observe?: RoundObserver | undefined;
  /**
   * Runs the handler with the `ctx` the era built: `runs.handler(ctx)` (the call found, rather than a
   * closure around it: a 2025-era call keeps this while the person answers).
   */
  readonly runs: CallHandler<R>;
  /** For a tool that may run as a task: how, and what to do with the task's outcome. */
  readonly task?: TaskCall<R> | undefined;
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
  run<R>(call: EraCall<R>): Promise<R | InputRequiredResult | CreateTaskResult>;
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
