import type { FlowRecord, FlowSettlement, FlowStore, KeptValue } from './flow-types.js';

/** Options of a {@link MemoryFlowStore}. */
export interface MemoryFlowStoreOptions {
  readonly now?: () => number;
  /** How long a flow is kept after it expires, so its link reads as used or expired. Default 15 minutes. */
  readonly graceMs?: number;
  /**
   * Flows held at most, across all users. When full, the oldest flow that is no longer pending is
   * dropped to make room (its link then reads as unknown); only when every flow held is pending is a
   * new one refused. Default 10,000.
   */
  readonly maxFlows?: number;
}

/** Flows in this process's memory: right for one process; a fleet needs {@link RedisFlowStore}. */
export class MemoryFlowStore implements FlowStore {
  readonly #flows = new Map<string, FlowRecord>();
  readonly #values = new Map<string, { readonly value: string; readonly expiresAt: number }>();
  /** Each user's flows held (pending, or kept past settling or expiry), pruned as they are dropped. */
  readonly #held = new Map<string, Set<string>>();
  readonly #now: () => number;
  /** How long a settled or expired flow is kept so its link reads as "already used" / "expired". */
  readonly #graceMs: number;
  readonly #maxFlows: number;

  constructor(options: MemoryFlowStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#graceMs = options.graceMs ?? 15 * 60_000;
    this.#maxFlows = options.maxFlows ?? 10_000;
  }

  async create(
    flow: FlowRecord,
    maxPendingPerUser = Number.POSITIVE_INFINITY,
    maxKeptPerUser = Number.POSITIVE_INFINITY,
  ): Promise<boolean> {
    this.#sweep();
    if (this.#flows.has(flow.id)) throw new Error(`Flow ${flow.id} already exists.`);
    const held = this.#held.get(flow.principal) ?? new Set<string>();
    const now = this.#now();
    let pending = 0;
    for (const id of held) if (this.#isPending(this.#flows.get(id), now)) pending++;
    if (pending >= maxPendingPerUser || held.size >= maxKeptPerUser) return false;
    if (this.#flows.size >= this.#maxFlows && !this.#dropOldestSettled(now)) return false;
    held.add(flow.id);
    this.#held.set(flow.principal, held);
    this.#flows.set(flow.id, flow);
    return true;
  }

  async get(id: string): Promise<FlowRecord | undefined> {
    return this.#flows.get(id);
  }

  async settle(id: string, settlement: FlowSettlement): Promise<boolean> {
    return this.#settle(id, settlement);
  }

  async settleKeeping(id: string, settlement: FlowSettlement, kept: KeptValue): Promise<boolean> {
    if (!this.#settle(id, settlement)) return false;
    this.#values.set(kept.key, { value: kept.value, expiresAt: kept.expiresAt });
    return true;
  }

  #settle(id: string, settlement: FlowSettlement): boolean {
    const flow = this.#flows.get(id);
    if (!this.#isPending(flow, this.#now())) return false;
    // What the page needed (the question, up to its data cap) is not kept past the answer.
    this.#flows.set(id, { ...flow!, ...settlement, data: null });
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

  async takeValue(key: string): Promise<string | undefined> {
    const kept = this.#values.get(key);
    this.#values.delete(key);
    return kept !== undefined && kept.expiresAt > this.#now() ? kept.value : undefined;
  }

  /** Flows held now (pending, or kept for their grace period). */
  get size(): number {
    return this.#flows.size;
  }

  #isPending(flow: FlowRecord | undefined, now: number): boolean {
    return flow?.status === 'pending' && flow.expiresAt > now;
  }

  /** Drops the flow held longest that is no longer pending; false when every flow is pending. */
  #dropOldestSettled(now: number): boolean {
    for (const [id, flow] of this.#flows) {
      if (this.#isPending(flow, now)) continue;
      this.#drop(id, flow);
      return true;
    }
    return false;
  }

  #drop(id: string, flow: FlowRecord): void {
    this.#flows.delete(id);
    const held = this.#held.get(flow.principal);
    held?.delete(id);
    if (held?.size === 0) this.#held.delete(flow.principal);
  }

  // Values are parked calls and sealed answers of question pages: one of each at most per page, and
  // kept no longer than their page, so the caps on flows bound them too.
  #sweep(): void {
    const now = this.#now();
    const cutoff = now - this.#graceMs;
    for (const [id, flow] of this.#flows) if (flow.expiresAt < cutoff) this.#drop(id, flow);
    for (const [key, kept] of this.#values) if (kept.expiresAt <= now) this.#values.delete(key);
  }
}
