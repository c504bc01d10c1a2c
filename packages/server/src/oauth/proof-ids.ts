/** What the replay cache says of a proof: new (now remembered), seen before, or no room for it. */
export type ProofIdVerdict = 'new' | 'replayed' | 'key-busy' | 'full';

/**
 * The DPoP proof ids (`jti`) seen, each kept until its proof could no longer be accepted: an id is
 * never forgotten while a replay of its proof would pass, so when the cache is full new proofs are
 * refused rather than old ones forgotten. One key may hold `maxPerKey` of them (its rate over the
 * window), so a few keys cannot fill it for everyone.
 */
export class ProofIds {
  /** `<key thumbprint> <jti>` → the second its proof stops being acceptable. */
  readonly #until = new Map<string, number>();
  readonly #perKey = new Map<string, number>();
  readonly #maxPerKey: number;
  readonly #max: number;
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(limits: { readonly maxPerKey: number; readonly max: number }) {
    this.#maxPerKey = limits.maxPerKey;
    this.#max = limits.max;
  }

  /** Remembers `jti` of `key` until `until` (seconds), unless it was seen or there is no room. */
  remember(key: string, jti: string, until: number, now: number): ProofIdVerdict {
    const id = `${key} ${jti}`;
    this.#dropExpiredFront(now);
    if (this.#until.has(id)) return 'replayed';
    const held = () => this.#perKey.get(key) ?? 0;
    if (held() >= this.#maxPerKey || this.#until.size >= this.#max) this.#sweep(now);
    if (held() >= this.#maxPerKey) return 'key-busy';
    if (this.#until.size >= this.#max) return 'full';
    this.#until.set(id, until);
    this.#perKey.set(key, held() + 1);
    return 'new';
  }

  /** Seconds until the oldest id held expires (a refused client may try again then). */
  retryAfter(now: number): number {
    let soonest = Number.POSITIVE_INFINITY;
    for (const until of this.#until.values()) soonest = Math.min(soonest, until);
    return Number.isFinite(soonest) ? Math.max(1, Math.ceil(soonest - now)) : 1;
  }

  get size(): number {
    return this.#until.size;
  }

  /** Ids come in about the order they expire: the expired ones at the front go at once. */
  #dropExpiredFront(now: number): void {
    for (const [id, until] of this.#until) {
      if (until > now) return;
      this.#forget(id);
    }
  }

  /** Every expired id, wherever it stands: at most once a second, since it reads them all. */
  #sweep(now: number): void {
    if (now - this.#sweptAt < 1) return;
    this.#sweptAt = now;
    for (const [id, until] of this.#until) if (until <= now) this.#forget(id);
  }

  #forget(id: string): void {
    this.#until.delete(id);
    const key = id.slice(0, id.indexOf(' '));
    const count = (this.#perKey.get(key) ?? 1) - 1;
    if (count > 0) this.#perKey.set(key, count);
    else this.#perKey.delete(key);
  }
}
