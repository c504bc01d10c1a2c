import { randomBytes } from 'node:crypto';
import { TaskRecord } from './task-record.js';

/** Settings of the tasks of one server. */
export interface TaskSettings {
  /** How long a task stays readable after its last change, in milliseconds. Default 3600000 (1 hour). */
  readonly ttlMs?: number;
  /** How often clients should poll `tasks/get`, in milliseconds. Default 1000. */
  readonly pollIntervalMs?: number;
  /**
   * Tasks one caller may hold at once (running or kept for reading): a signed-in user, or an
   * anonymous caller by network address (an IPv6 one by its /64). Default 100.
   */
  readonly maxPerUser?: number;
  /**
   * Tasks this process holds at once. At the cap, the finished task changed longest ago is forgotten
   * (anonymous callers' first) to make room; only when every task is still running is a new one
   * refused. Default 1000.
   */
  readonly maxTasks?: number;
}

/** Which budget a refused task ran into. */
export type TaskQuota = 'user' | 'address' | 'server';

const REFUSALS: Readonly<Record<TaskQuota, (limit: number) => string>> = {
  user: (limit) =>
    `Too many tasks: a user may hold ${limit} at once; read or cancel finished ones, or wait for them to expire.`,
  address: (limit) =>
    `Too many tasks from this address: anonymous callers may hold ${limit} at once from one address; sign in, or cancel finished ones.`,
  server: (limit) => `Too many tasks: this server holds ${limit}, all still running; try again later.`,
};

/** Thrown when a caller, or the server, already holds as many tasks as it may. */
export class TooManyTasksError extends Error {
  readonly quota: TaskQuota;

  constructor(limit: number, quota: TaskQuota = 'user') {
    super(REFUSALS[quota](limit));
    this.name = 'TooManyTasksError';
    this.quota = quota;
  }
}

/** Whom a new task is for. */
export interface NewTask {
  /** The verified user (only they can see or steer the task), or `undefined` for anonymous. */
  readonly principal: string | undefined;
  /** The tool whose call becomes the task. */
  readonly tool: string;
  /** Whom it counts against (see `callerKey`): the user, or an anonymous caller's address. */
  readonly caller: string;
}

/**
 * The tasks of this process. A task is found only by the user who created it: to anyone else its
 * id is unknown. Tasks are dropped once their TTL passed since their last change. Each caller holds
 * at most `maxPerUser`, the process at most `maxTasks`.
 */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxPerUser: number;
  readonly #maxTasks: number;
  readonly #now: () => number;

  constructor(settings: TaskSettings = {}, now: () => number = Date.now) {
    this.#ttlMs = whole(settings.ttlMs, 3_600_000, 'tasks.ttlMs');
    this.#pollIntervalMs = whole(settings.pollIntervalMs, 1000, 'tasks.pollIntervalMs');
    this.#maxPerUser = whole(settings.maxPerUser, 100, 'tasks.maxPerUser');
    this.#maxTasks = whole(settings.maxTasks, 1000, 'tasks.maxTasks');
    this.#now = now;
  }

  /** A new task; throws {@link TooManyTasksError} when its caller's or the server's budget is spent. */
  create({ principal, tool, caller }: NewTask): TaskRecord {
    this.#sweep();
    let held = 0;
    for (const task of this.#tasks.values()) if (task.caller === caller) held++;
    if (held >= this.#maxPerUser)
      throw new TooManyTasksError(this.#maxPerUser, principal === undefined ? 'address' : 'user');
    if (this.#tasks.size >= this.#maxTasks && !this.#forgetOldestFinished())
      throw new TooManyTasksError(this.#maxTasks, 'server');
    const task = new TaskRecord({
      id: randomBytes(16).toString('base64url'),
      principal,
      tool,
      caller,
      ttlMs: this.#ttlMs,
      pollIntervalMs: this.#pollIntervalMs,
      now: this.#now,
    });
    this.#tasks.set(task.id, task);
    return task;
  }

  /** Forgets the finished task changed longest ago, an anonymous caller's first; false if none. */
  #forgetOldestFinished(): boolean {
    let oldest: TaskRecord | undefined;
    for (const task of this.#tasks.values()) {
      if (!task.terminal) continue;
      const anonymous = task.principal === undefined;
      const oldestAnonymous = oldest?.principal === undefined;
      if (
        !oldest ||
        (anonymous && !oldestAnonymous) ||
        (anonymous === oldestAnonymous && task.expiresAt < oldest.expiresAt)
      )
        oldest = task;
    }
    if (!oldest) return false;
    this.#tasks.delete(oldest.id);
    return true;
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
