import type { Redis } from 'ioredis';
import { requireRedisClient } from '../require-redis-client.js';
import type { FlowRecord, FlowSettlement, FlowStore, KeptValue } from './flow-types.js';

// Creates atomically inside Redis. KEYS: the flow, its user's pending set (flow ids scored by
// expiry), its user's held set (every flow id it holds, scored by when its key expires, so the set
// counts exactly the flows Redis still keeps). ARGV: the record, its TTL in ms, now, the user's
// pending cap, the flow id, its expiry, the user's held cap, when the flow's key expires.
// Returns 1 created, 0 over a cap, -1 the id exists.
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[7]) then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return -1 end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
redis.call('ZADD', KEYS[3], ARGV[8], ARGV[5])
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
return 1
`;

// Settles atomically inside Redis: only a pending, unexpired flow changes, exactly once, and it
// leaves its user's pending set; its data is dropped (nothing reads it after). KEYS: the flow, and
// (when a value is kept with the settlement, by the winner only) the value's key; ARGV: the
// settlement, now, the pending-set prefix, and the value and its TTL in ms.
const SETTLE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local flow = cjson.decode(raw)
if flow.status ~= 'pending' or tonumber(flow.expiresAt) <= tonumber(ARGV[2]) then return 0 end
local settlement = cjson.decode(ARGV[1])
for k, v in pairs(settlement) do flow[k] = v end
flow.data = cjson.null
redis.call('SET', KEYS[1], cjson.encode(flow), 'KEEPTTL')
redis.call('ZREM', ARGV[3] .. flow.principal, flow.id)
if KEYS[2] then redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5]) end
return 1
`;

// Reads and deletes a value in one step (GETDEL, written for Redis before 6.2 too).
const TAKE = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value
`;

/** Where a `RedisFlowStore` keeps its flows, and for how long after they expire. */
export interface RedisFlowStoreOptions {
  /** Key prefix, so several servers can share one Redis. Default `parley:flow:`. */
  readonly prefix?: string;
  /** How long a flow is kept after it expires, so its link reads as expired. Default 15 minutes. */
  readonly graceMs?: number;
  readonly now?: () => number;
}

/**
 * Flows in Redis (ioredis), shared by every replica: a flow created on one replica is opened by
 * the page on another and read by a retry on a third. `ioredis` is an optional peer dependency of
 * `@parley/server`: install it next to the server when you use this store.
 *
 * @example
 * import { RedisFlowStore } from '@parley/server/redis';
 * import { Redis } from 'ioredis';
 *
 * const store = new RedisFlowStore(new Redis(process.env.REDIS_URL!));
 * createServer({
 *   name: 'shop',
 *   version: '1.0.0',
 *   flows: {
 *     store,
 *     publicUrl: 'https://shop.example.com',
 *     session: (request) => userFromSessionCookie(request),
 *     signIn: (returnTo) => `/signin?next=${encodeURIComponent(returnTo)}`,
 *   },
 * });
 */
export class RedisFlowStore implements FlowStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #graceMs: number;
  readonly #now: () => number;

  constructor(redis: Redis, options: RedisFlowStoreOptions = {}) {
    this.#redis = requireRedisClient('RedisFlowStore', redis);
    this.#prefix = options.prefix ?? 'parley:flow:';
    this.#graceMs = options.graceMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  async create(
    flow: FlowRecord,
    maxPendingPerUser = Number.POSITIVE_INFINITY,
    maxKeptPerUser = Number.POSITIVE_INFINITY,
  ): Promise<boolean> {
    const now = this.#now();
    const ttl = Math.max(1, flow.expiresAt - now + this.#graceMs);
    const cap = (limit: number) => (Number.isFinite(limit) ? String(limit) : '1e18');
    const created = await this.#redis.eval(
      CREATE,
      3,
      this.#prefix + flow.id,
      this.#pendingKey(flow.principal),
      `${this.#prefix}held:${flow.principal}`,
      JSON.stringify(flow),
      String(ttl),
      String(now),
      cap(maxPendingPerUser),
      flow.id,
      String(flow.expiresAt),
      cap(maxKeptPerUser),
      String(now + ttl),
    );
    if (created === -1) throw new Error(`Flow ${flow.id} already exists.`);
    return created === 1;
  }

  /** The key of a user's set of pending flow ids (one key prefix for the Lua script to rebuild). */
  #pendingKey(principal: string): string {
    return `${this.#prefix}pending:${principal}`;
  }

  async get(id: string): Promise<FlowRecord | undefined> {
    const raw = await this.#redis.get(this.#prefix + id);
    return raw === null ? undefined : (JSON.parse(raw) as FlowRecord);
  }

  async putValue(key: string, value: string, expiresAt: number): Promise<void> {
    await this.#redis.set(this.#valueKey(key), value, 'PX', this.#ttl(expiresAt));
  }

  async getValue(key: string): Promise<string | undefined> {
    return (await this.#redis.get(this.#valueKey(key))) ?? undefined;
  }

  async deleteValue(key: string): Promise<void> {
    await this.#redis.del(this.#valueKey(key));
  }

  async settle(id: string, settlement: FlowSettlement): Promise<boolean> {
    const changed = await this.#redis.eval(
      SETTLE,
      1,
      this.#prefix + id,
      JSON.stringify(settlement),
      String(this.#now()),
      `${this.#prefix}pending:`,
    );
    return changed === 1;
  }

  async settleKeeping(id: string, settlement: FlowSettlement, kept: KeptValue): Promise<boolean> {
    const changed = await this.#redis.eval(
      SETTLE,
      2,
      this.#prefix + id,
      this.#valueKey(kept.key),
      JSON.stringify(settlement),
      String(this.#now()),
      `${this.#prefix}pending:`,
      kept.value,
      String(this.#ttl(kept.expiresAt)),
    );
    return changed === 1;
  }

  async takeValue(key: string): Promise<string | undefined> {
    return ((await this.#redis.eval(TAKE, 1, this.#valueKey(key))) as string | null) ?? undefined;
  }

  #valueKey(key: string): string {
    return `${this.#prefix}value:${key}`;
  }

  #ttl(expiresAt: number): number {
    return Math.max(1, Math.ceil(expiresAt - this.#now()));
  }
}
