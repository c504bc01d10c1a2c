import { MissingRequiredClientCapabilityError } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import type { AskPoint, ItemResult } from '../ask/ask-item.js';
import type { AskEngine, TaskHooks } from '../context/parley-context.js';
import { ToolError } from '../errors.js';
import type { TaskMode } from '../registry/tools.js';
import type { Json } from '../state/round-state.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { declaresTasks, TASKS_EXTENSION, TASKS_REQUIRED } from '../tasks/task-requests.js';
import { TooManyTasksError } from '../tasks/task-store.js';
import { TaskEngine } from './task-engine.js';

/** The engine a context asks through; it changes once, when the call becomes a task. */
export class EngineSwitch implements AskEngine {
  #current: AskEngine;

  constructor(first: AskEngine) {
    this.#current = first;
  }

  switchTo(next: AskEngine): void {
    this.#current = next;
  }

  ask(point: AskPoint): Promise<ItemResult[]> {
    return this.#current.ask(point);
  }

  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    return this.#current.once(name, fn);
  }

  upNext(): number | undefined {
    return this.#current.upNext?.();
  }

  yieldRound(fp: number, label: string, afterMs: number): Promise<void> {
    return this.#current.yieldRound(fp, label, afterMs);
  }
}

/** What the context needs to turn its call into a task. */
interface TaskStartOptions {
  readonly app: App;
  readonly mode: TaskMode | undefined;
  readonly clientCapabilities: unknown;
  readonly principal: string | undefined;
  /** Whom the task counts against (see `callerKey`). */
  readonly caller: string;
  readonly engine: EngineSwitch;
  readonly callId: string;
  /** The tool called. */
  readonly tool: string;
}

const NEVER: Promise<never> = new Promise(() => {});

/**
 * Turns a 2026-07-28 call into a task when its handler calls `ctx.runAsTask()` (or before the
 * handler runs, for a tool whose task starts with the call). `detached` resolves with the task at
 * that moment: the request is answered with the task, and the handler goes on in the background,
 * its questions now asked through the task.
 */
export class TaskStarter implements TaskHooks {
  readonly detached: Promise<TaskRecord>;
  #resolve!: (task: TaskRecord) => void;
  #task: TaskRecord | undefined;
  readonly #options: TaskStartOptions;

  constructor(options: TaskStartOptions) {
    this.#options = options;
    // Only a tool with a task mode can become a task (runAsTask refuses otherwise).
    this.detached = options.mode
      ? new Promise((resolve) => {
          this.#resolve = resolve;
        })
      : NEVER;
  }

  get current(): TaskRecord | undefined {
    return this.#task;
  }

  async runAsTask(): Promise<void> {
    const { app, mode, clientCapabilities, principal, caller, engine, callId, tool } = this.#options;
    if (!mode) throw new TypeError(NO_TASK_MODE_MESSAGE);
    if (this.#task) return;
    if (!declaresTasks(clientCapabilities)) {
      if (mode.support === 'optional') return; // the call simply goes on as a plain call
      throw new MissingRequiredClientCapabilityError(
        TASKS_REQUIRED,
        `This tool runs only as a task: declare the ${TASKS_EXTENSION} extension in clientCapabilities.extensions.`,
      );
    }
    let task: TaskRecord;
    try {
      task = app.tasks.create({ principal, tool, caller });
    } catch (error) {
      if (error instanceof TooManyTasksError) throw new ToolError(error.message);
      throw error;
    }
    engine.switchTo(
      new TaskEngine(task, {
        maxTries: app.maxTries,
        callId,
        questionTimeoutMs: app.questionTimeoutMs,
        once: app.once,
      }),
    );
    this.#task = task;
    this.#resolve(task);
  }
}

const NO_TASK_MODE_MESSAGE =
  'ctx.runAsTask() needs `task` in the tool config (server.tool(name, { task: ... })).';

/** A 2026-07-28 call of a tool with no task mode: it never becomes a task (nothing made per round). */
export const NO_TASK_MODE: TaskHooks = {
  current: undefined,
  async runAsTask() {
    throw new TypeError(NO_TASK_MODE_MESSAGE);
  },
};

/** On the 2025 eras a task tool runs as a plain call: the session can ask questions anyway. */
export const NO_TASKS: TaskHooks = {
  current: undefined,
  async runAsTask() {},
};
