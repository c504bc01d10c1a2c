import type { Redis } from 'ioredis';
import {
  type SignInLimiter,
  THROTTLE_DEFAULTS,
  type ThrottleLimits,
  throttleKeys,
} from './sign-in-throttle.js';

/** Adds one failure to a counter; the first failure of a window starts the window's expiry. */
const COUNT_FAILURE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * A {@link SignInLimiter} whose counters live in Redis, so every replica of a fleet that shares the
 * Redis counts the same failures: five wrong passwords spread over three replicas are five, not
 * three times five. Each counter is a key that expires with its window.
 *
 * When Redis cannot be reached the check throws, so the sign-in fails with an error instead of
 * going unthrottled.
 */
export class RedisSignInThrottle implements SignInLimiter {
  readonly #redis: Redis;
  readonly #limits: ThrottleLimits;
  readonly #prefix: string;

  constructor(redis: Redis, limits: Partial<ThrottleLimits> = {}, prefix = 'brightgrid:sign-in:') {
    this.#redis = redis;
    this.#limits = { ...THROTTLE_DEFAULTS, ...limits };
    this.#prefix = prefix;
  }

  async retryAfter(user: string, address: string | undefined): Promise<number> {
    let wait = 0;
    for (const [key, limit] of throttleKeys(this.#limits, user, address)) {
      const [[, count], [, ttl]] = (await this.#redis
        .multi()
        .get(this.#prefix + key)
        .pttl(this.#prefix + key)
        .exec()) as [[unknown, string | null], [unknown, number]];
      if (Number(count ?? 0) >= limit && ttl > 0) wait = Math.max(wait, ttl);
    }
    return Math.ceil(wait / 1000);
  }

  async failed(user: string, address: string | undefined): Promise<void> {
    for (const [key] of throttleKeys(this.#limits, user, address)) {
      await this.#redis.eval(COUNT_FAILURE, 1, this.#prefix + key, String(this.#limits.windowMs));
    }
  }
}
