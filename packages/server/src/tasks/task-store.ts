import { randomBytes } from 'node:crypto';
import { TaskRecord } from './task-record.js';

/** Settings of the tasks of one server. */
export interface TaskSettings {
  /** How long a task stays readable after its last change, in milliseconds. Default 3600000 (1 hour). */
  readonly ttlMs?: number;
  /** How often clients should poll `tasks/get`, in milliseconds. Default 1000. */
  readonly pollIntervalMs?: number;
  /** Tasks one user may hold at once (running or kept for reading). Default 100. */
  readonly maxPerUser?: number;
}

/** Thrown when a user already holds `maxPerUser` tasks. */
export class TooManyTasksError extends Error {
  constructor(limit: number) {
    super(
      `Too many tasks: a user may hold ${limit} at once; read or cancel finished ones, or wait for them to expire.`,
    );
    this.name = 'TooManyTasksError';
  }
}

/**
 * The tasks of this process. A task is found only by the user who created it: to anyone else its
 * id is unknown. Tasks are dropped once their TTL passed since their last change.
 */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxPerUser: number;
  readonly #now: () => number;

  constructor(settings: TaskSettings = {}, now: () => number = Date.now) {
    this.#ttlMs = whole(settings.ttlMs, 3_600_000, 'tasks.ttlMs');
    this.#pollIntervalMs = whole(settings.pollIntervalMs, 1000, 'tasks.pollIntervalMs');
    this.#maxPerUser = whole(settings.maxPerUser, 100, 'tasks.maxPerUser');
    this.#now = now;
  }

  /** A new task of `principal` for a call of `tool`. */
  create(principal: string | undefined, tool: string): TaskRecord {
    this.#sweep();
    let held = 0;
    for (const task of this.#tasks.values()) if (task.principal === principal) held++;
    if (held >= this.#maxPerUser) throw new TooManyTasksError(this.#maxPerUser);
    const task = new TaskRecord({
      id: randomBytes(16).toString('base64url'),
      principal,
      tool,
      ttlMs: this.#ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
      now: this.#now,
    });
    this.#tasks.set(task.id, task);
    return task;
  }

  /** The task with this id, when `principal` created it. */
  get(id: string, principal: string | undefined): TaskRecord | undefined {
    this.#sweep();
    const task = this.#tasks.get(id);
    return task && task.principal === principal ? task : undefined;
  }

  get size(): number {
    return this.#tasks.size;
  }

  /** Cancels every running task (the server is closing). */
  cancelAll(): void {
    for (const task of this.#tasks.values()) task.cancel();
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, task] of this.#tasks) {
      if (task.terminal && task.expiresAt <= now) this.#tasks.delete(id);
    }
  }
}

function whole(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`${name} must be a positive whole number (got ${value}).`);
  return value;
}
