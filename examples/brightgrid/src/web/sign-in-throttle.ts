/** How many failed sign-ins are allowed before more are refused for a while. */
export interface ThrottleLimits {
  /** Failed sign-ins for one user name, from anywhere, per window. Default 5. */
  readonly perUser: number;
  /** Failed sign-ins from one client address, for any names, per window. Default 20. */
  readonly perAddress: number;
  /** Default 60 s. */
  readonly windowMs: number;
}

export const THROTTLE_DEFAULTS: ThrottleLimits = { perUser: 5, perAddress: 20, windowMs: 60_000 };

/**
 * Counts failed sign-ins per user name and per client address in a fixed window, so guessing
 * passwords (and the hashing each guess costs) is bounded. A success does not reset a user's
 * count: an attacker who knows one password must not unlock guessing another's.
 *
 * {@link SignInThrottle} counts in this process; `RedisSignInThrottle` counts for every replica of
 * a fleet that shares one Redis (otherwise N replicas allow N times the guesses).
 */
export interface SignInLimiter {
  /** Seconds to wait before `user` may try again from `address`; 0 when they may try now. */
  retryAfter(user: string, address: string | undefined): Promise<number>;
  /** Records a failed sign-in. */
  failed(user: string, address: string | undefined): Promise<void>;
}

/** The counters a failed sign-in of `user` from `address` adds to, each with its limit. */
export function throttleKeys(
  limits: ThrottleLimits,
  user: string,
  address: string | undefined,
): [key: string, limit: number][] {
  const keys: [string, number][] = [[`user:${user.toLowerCase()}`, limits.perUser]];
  if (address !== undefined) keys.push([`address:${address}`, limits.perAddress]);
  return keys;
}

/** A {@link SignInLimiter} that counts in this process's memory. */
export class SignInThrottle implements SignInLimiter {
  readonly #limits: ThrottleLimits;
  readonly #now: () => number;
  readonly #failures = new Map<string, { count: number; until: number }>();

  constructor(limits: Partial<ThrottleLimits> = {}, now: () => number = Date.now) {
    this.#limits = { ...THROTTLE_DEFAULTS, ...limits };
    this.#now = now;
  }

  async retryAfter(user: string, address: string | undefined): Promise<number> {
    const now = this.#now();
    let wait = 0;
    for (const [key, limit] of throttleKeys(this.#limits, user, address)) {
      const entry = this.#failures.get(key);
      if (entry && entry.until > now && entry.count >= limit) wait = Math.max(wait, entry.until - now);
    }
    return Math.ceil(wait / 1000);
  }

  async failed(user: string, address: string | undefined): Promise<void> {
    const now = this.#now();
    if (this.#failures.size > 10_000) {
      for (const [key, entry] of this.#failures) if (entry.until <= now) this.#failures.delete(key);
    }
    for (const [key] of throttleKeys(this.#limits, user, address)) {
      const entry = this.#failures.get(key);
      if (entry && entry.until > now) entry.count++;
      else this.#failures.set(key, { count: 1, until: now + this.#limits.windowMs });
    }
  }
}
