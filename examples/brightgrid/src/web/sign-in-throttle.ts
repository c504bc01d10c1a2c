/** How many failed sign-ins are allowed before more are refused for a while. */
export interface ThrottleLimits {
  /** Failed sign-ins for one user name, from anywhere, per window. Default 5. */
  readonly perUser: number;
  /** Failed sign-ins from one client address, for any names, per window. Default 20. */
  readonly perAddress: number;
  /** Default 60 s. */
  readonly windowMs: number;
}

const DEFAULTS: ThrottleLimits = { perUser: 5, perAddress: 20, windowMs: 60_000 };

/**
 * Counts failed sign-ins per user name and per client address in a fixed window, so guessing
 * passwords (and the hashing each guess costs) is bounded. A success does not reset a user's
 * count: an attacker who knows one password must not unlock guessing another's.
 */
export class SignInThrottle {
  readonly #limits: ThrottleLimits;
  readonly #now: () => number;
  readonly #failures = new Map<string, { count: number; until: number }>();

  constructor(limits: Partial<ThrottleLimits> = {}, now: () => number = Date.now) {
    this.#limits = { ...DEFAULTS, ...limits };
    this.#now = now;
  }

  /** Seconds to wait before `user` may try again from `address`; 0 when they may try now. */
  retryAfter(user: string, address: string | undefined): number {
    const now = this.#now();
    let wait = 0;
    for (const [key, limit] of this.#keys(user, address)) {
      const entry = this.#failures.get(key);
      if (entry && entry.until > now && entry.count >= limit) wait = Math.max(wait, entry.until - now);
    }
    return Math.ceil(wait / 1000);
  }

  /** Records a failed sign-in. */
  failed(user: string, address: string | undefined): void {
    const now = this.#now();
    if (this.#failures.size > 10_000) {
      for (const [key, entry] of this.#failures) if (entry.until <= now) this.#failures.delete(key);
    }
    for (const [key] of this.#keys(user, address)) {
      const entry = this.#failures.get(key);
      if (entry && entry.until > now) entry.count++;
      else this.#failures.set(key, { count: 1, until: now + this.#limits.windowMs });
    }
  }

  *#keys(user: string, address: string | undefined): Iterable<[string, number]> {
    yield [`user:${user.toLowerCase()}`, this.#limits.perUser];
    if (address !== undefined) yield [`address:${address}`, this.#limits.perAddress];
  }
}
