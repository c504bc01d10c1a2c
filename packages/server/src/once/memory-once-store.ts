import type { Json } from '../state/round-state.js';
import type { OnceClaim, OnceStore } from './once-store.js';

type Entry = { readonly status: 'running' | 'done'; readonly value?: Json; readonly until: number };

/**
 * `ctx.once` records in this process's memory: exactly once across re-sent rounds served by this
 * process, not across replicas (use `RedisOnceStore` for a fleet). Expired records are dropped as
 * keys are touched.
 *
 * @example
 * createServer({ name: 'shop', version: '1.0.0', once: { store: new MemoryOnceStore() } });
 */
export class MemoryOnceStore implements OnceStore {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(options: { readonly now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, leaseMs: number): Promise<OnceClaim> {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.until > now) {
      return entry.status === 'done' ? { status: 'done', value: entry.value ?? null } : { status: 'running' };
    }
    this.#entries.set(key, { status: 'running', until: now + leaseMs });
    return { status: 'claimed' };
  }

  async finish(key: string, value: Json, keepMs: number): Promise<void> {
    this.#entries.set(key, { status: 'done', value, until: this.#now() + keepMs });
    this.#sweep();
  }

  async abandon(key: string): Promise<void> {
    if (this.#entries.get(key)?.status === 'running') this.#entries.delete(key);
  }

  /** How many keys are held (for tests and metrics). */
  get size(): number {
    this.#sweep();
    return this.#entries.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
  }
}
