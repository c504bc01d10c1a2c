import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import { CallEndingError } from '../errors.js';

/** Where a task is in its life (SEP-2663). Terminal: completed, failed, cancelled. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A protocol-level failure of a task, in JSON-RPC error shape. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

interface Waiting {
  readonly request: InputRequest;
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Thrown into a task's waiting questions when the task is cancelled. */
export class TaskCancelledError extends CallEndingError {
  constructor() {
    super('The task was cancelled.');
    this.name = 'TaskCancelledError';
  }
}

/**
 * One task: its status, the questions it waits on (answered through `tasks/update`), and its
 * outcome. It lives in the process that runs it.
 */
export class TaskRecord {
  readonly id: string;
  /** The verified user who created it; only that user can see or steer it. */
  readonly principal: string | undefined;
  /** The tool whose call became this task: what it needs (its scopes) the task's requests need too. */
  readonly tool: string;
  /** Whom it counts against (see `callerKey`). */
  readonly caller: string;
  readonly createdAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Aborted when the task is cancelled: the handler's `ctx.signal`. */
  readonly abort = new AbortController();
  #status: TaskStatus = 'working';
  #updatedAt: number;
  #result: CallToolResult | undefined;
  #error: TaskError | undefined;
  readonly #waiting = new Map<string, Waiting>();
  readonly #now: () => number;

  constructor(options: {
    id: string;
    principal: string | undefined;
    tool: string;
    caller: string;
    ttlMs: number;
    pollIntervalMs: number;
    now: () => number;
  }) {
    this.id = options.id;
    this.principal = options.principal;
    this.tool = options.tool;
    this.caller = options.caller;
    this.ttlMs = options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs;
    this.#now = options.now;
    this.createdAt = options.now();
    this.#updatedAt = this.createdAt;
  }

  get status(): TaskStatus {
    return this.#status;
  }

  get terminal(): boolean {
    return TERMINAL.has(this.#status);
  }

  /** When the task may be forgotten: its TTL counts from its last change. */
  get expiresAt(): number {
    return this.#updatedAt + this.ttlMs;
  }

  /**
   * Parks a question until `tasks/update` answers it under `key`; the task is input_required
   * meanwhile. Unanswered after `timeoutMs` (when given), the question is withdrawn and the promise
   * rejects with `timedOut()`, as a question on any era stops waiting after the server's timeout.
   */
  waitFor(
    key: string,
    request: InputRequest,
    timeout?: { readonly ms: number; readonly error: () => Error },
  ): Promise<unknown> {
    if (this.terminal) return Promise.reject(new TaskCancelledError());
    return new Promise((resolve, reject) => {
      const timer =
        timeout &&
        setTimeout(() => {
          if (this.#waiting.get(key)?.timer !== timer) return;
          this.#waiting.delete(key);
          if (this.#waiting.size === 0 && this.#status === 'input_required') this.#set('working');
          reject(timeout.error());
        }, timeout.ms);
      timer?.unref?.();
      this.#waiting.set(key, { request, resolve, reject, timer });
      this.#set('input_required');
    });
  }

  /**
   * Delivers answers (`tasks/update`): each known key resolves its question and leaves the map;
   * unknown keys are ignored. The task stays input_required while any question is still open.
   */
  answer(responses: Readonly<Record<string, unknown>>): void {
    for (const [key, reply] of Object.entries(responses)) {
      const waiting = this.#waiting.get(key);
      if (!waiting) continue;
      this.#waiting.delete(key);
      clearTimeout(waiting.timer);
      waiting.resolve(reply);
    }
    if (this.#waiting.size === 0 && this.#status === 'input_required') this.#set('working');
  }

  complete(result: CallToolResult): void {
    if (this.terminal) return;
    this.#result = result;
    this.#set('completed');
  }

  fail(error: TaskError): void {
    if (this.terminal) return;
    this.#error = error;
    this.#set('failed');
  }

  /** Cancels a running task (a terminal one stays as it is): its handler's signal aborts. */
  cancel(): void {
    if (this.terminal) return;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    this.#set('cancelled');
    this.abort.abort(new TaskCancelledError());
    // The handler's questions end too, so nothing stays parked on a task that is over.
    for (const question of waiting) {
      clearTimeout(question.timer);
      question.reject(new TaskCancelledError());
    }
  }

  /** The task fields every task shape carries (flat, no `requestState`). */
  #fields() {
    return {
      taskId: this.id,
      status: this.#status,
      createdAt: new Date(this.createdAt).toISOString(),
      lastUpdatedAt: new Date(this.#updatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  /** The `tools/call` answer that created the task (`resultType: "task"`). */
  createResult(): Record<string, unknown> {
    return { resultType: 'task', ...this.#fields() };
  }

  /** The `tasks/get` answer: the outcome inlined once terminal, the open questions while input_required. */
  detailed(): Record<string, unknown> {
    const open = Object.fromEntries([...this.#waiting].map(([key, waiting]) => [key, waiting.request]));
    return {
      resultType: 'complete',
      ...this.#fields(),
      ...(this.#status === 'input_required' && { inputRequests: open }),
      ...(this.#status === 'completed' && this.#result && { result: this.#result }),
      ...(this.#status === 'failed' && this.#error && { error: this.#error }),
    };
  }

  #set(status: TaskStatus): void {
    this.#status = status;
    this.#updatedAt = this.#now();
  }
}
