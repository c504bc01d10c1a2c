import type { FlowRecord, FlowSettlement, FlowStore } from './flow-types.js';

/** Flows in this process's memory: right for one process; a fleet needs {@link RedisFlowStore}. */
export class MemoryFlowStore implements FlowStore {
  readonly #flows = new Map<string, FlowRecord>();
  readonly #values = new Map<string, { readonly value: string; readonly expiresAt: number }>();
  /** Each user's flows that may still be pending (pruned as they settle or expire). */
  readonly #pending = new Map<string, Set<string>>();
  readonly #now: () => number;
  /** How long a settled or expired flow is kept so its link reads as "already used" / "expired". */
  readonly #graceMs: number;

  constructor(options: { now?: () => number; graceMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#graceMs = options.graceMs ?? 15 * 60_000;
  }

  async create(flow: FlowRecord, maxPendingPerUser = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.#sweep();
    if (this.#flows.has(flow.id)) throw new Error(`Flow ${flow.id} already exists.`);
    const pending = this.#pending.get(flow.principal) ?? new Set<string>();
    const now = this.#now();
    for (const id of pending) {
      const other = this.#flows.get(id);
      if (other?.status !== 'pending' || other.expiresAt <= now) pending.delete(id);
    }
    if (pending.size >= maxPendingPerUser) return false;
    pending.add(flow.id);
    this.#pending.set(flow.principal, pending);
    this.#flows.set(flow.id, flow);
    return true;
  }

  async get(id: string): Promise<FlowRecord | undefined> {
    return this.#flows.get(id);
  }

  async settle(id: string, settlement: FlowSettlement): Promise<boolean> {
    const flow = this.#flows.get(id);
    if (flow?.status !== 'pending' || flow.expiresAt <= this.#now()) return false;
    this.#flows.set(id, { ...flow, ...settlement });
    this.#pending.get(flow.principal)?.delete(id);
    return true;
  }

  async putValue(key: string, value: string, expiresAt: number): Promise<void> {
    this.#sweep();
    this.#values.set(key, { value, expiresAt });
  }

  async getValue(key: string): Promise<string | undefined> {
    const kept = this.#values.get(key);
    if (kept === undefined) return undefined;
    if (kept.expiresAt <= this.#now()) {
      this.#values.delete(key);
      return undefined;
    }
    return kept.value;
  }

  async deleteValue(key: string): Promise<void> {
    this.#values.delete(key);
  }

  /** Flows held now (pending, or kept for their grace period). */
  get size(): number {
    return this.#flows.size;
  }

  #sweep(): void {
    const cutoff = this.#now() - this.#graceMs;
    for (const [id, flow] of this.#flows) if (flow.expiresAt < cutoff) this.#flows.delete(id);
    const now = this.#now();
    for (const [key, kept] of this.#values) if (kept.expiresAt <= now) this.#values.delete(key);
    for (const [principal, ids] of this.#pending) {
      for (const id of ids) if (!this.#flows.has(id)) ids.delete(id);
      if (ids.size === 0) this.#pending.delete(principal);
    }
  }
}
