import type { Redis } from 'ioredis';
import { requireRedisClient } from '../require-redis-client.js';
import type { Json } from '../state/round-state.js';
import type { OnceClaim, OnceStore } from './once-store.js';

// One key per once: claimed with SET NX (atomic across replicas), then overwritten with the value.
const RUNNING = '{"status":"running"}';
// Gives up a claim only while it is still a claim (a finished value is never deleted).
const ABANDON = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Where a `RedisOnceStore` keeps its records. */
export interface RedisOnceStoreOptions {
  /** Key prefix, so several servers can share one Redis. Default `parley:once:`. */
  readonly prefix?: string;
}

/**
 * `ctx.once` records in Redis (ioredis), shared by every replica: a round re-sent to another replica
 * finds the value the first run recorded (or waits for the run in progress) instead of running the
 * side effect again. `ioredis` is an optional peer dependency of `@parley/server`: install it next
 * to the server when you use this store.
 *
 * @example
 * import { RedisOnceStore } from '@parley/server/redis';
 * import { Redis } from 'ioredis';
 *
 * createServer({ name: 'shop', version: '1.0.0', once: { store: new RedisOnceStore(new Redis(process.env.REDIS_URL!)) } });
 */
export class RedisOnceStore implements OnceStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisOnceStoreOptions = {}) {
    this.#redis = requireRedisClient('RedisOnceStore', redis);
    this.#prefix = options.prefix ?? 'parley:once:';
  }

  async claim(key: string, leaseMs: number): Promise<OnceClaim> {
    const id = this.#prefix + key;
    const claimed = await this.#redis.set(id, RUNNING, 'PX', Math.max(1, leaseMs), 'NX');
    if (claimed === 'OK') return { status: 'claimed' };
    const raw = await this.#redis.get(id);
    if (raw === null) return this.claim(key, leaseMs); // the claim lapsed in between
    const record = JSON.parse(raw) as { status: string; value?: Json };
    return record.status === 'done' ? { status: 'done', value: record.value ?? null } : { status: 'running' };
  }

  async finish(key: string, value: Json, keepMs: number): Promise<void> {
    await this.#redis.set(
      this.#prefix + key,
      JSON.stringify({ status: 'done', value }),
      'PX',
      Math.max(1, keepMs),
    );
  }

  async abandon(key: string): Promise<void> {
    await this.#redis.eval(ABANDON, 1, this.#prefix + key, RUNNING);
  }
}
