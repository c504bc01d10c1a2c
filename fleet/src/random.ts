/** A small seeded generator (mulberry32), so a fleet run can be repeated with `--seed`. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Lowercase letters and digits, for unique markers. */
  word(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += 'abcdefghijklmnopqrstuvwxyz0123456789'[this.int(0, 35)];
    return out;
  }
}

/** `YYYY-MM-DD`, `days` after 2030-01-01 (UTC): far enough ahead to be a valid future date. */
export function futureDate(days: number): string {
  return new Date(Date.UTC(2030, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
}
