import type { Redis } from 'ioredis';
import type { FlowRecord, FlowSettlement, FlowStore } from './flow-types.js';

// Settles atomically inside Redis: only a pending, unexpired flow changes, exactly once.
const SETTLE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local flow = cjson.decode(raw)
if flow.status ~= 'pending' or tonumber(flow.expiresAt) <= tonumber(ARGV[2]) then return 0 end
local settlement = cjson.decode(ARGV[1])
for k, v in pairs(settlement) do flow[k] = v end
redis.call('SET', KEYS[1], cjson.encode(flow), 'KEEPTTL')
return 1
`;

export interface RedisFlowStoreOptions {
  /** Key prefix, so several servers can share one Redis. Default `parley:flow:`. */
  readonly prefix?: string;
  /** How long a flow is kept after it expires, so its link reads as expired. Default 15 minutes. */
  readonly graceMs?: number;
  readonly now?: () => number;
}

/**
 * Flows in Redis (ioredis), shared by every replica: a flow created on one replica is opened by
 * the page on another and read by a retry on a third.
 *
 * @example
 * const store = new RedisFlowStore(new Redis(process.env.REDIS_URL));
 * createServer({ name, version, flows: { store, publicUrl, session, signIn } });
 */
export class RedisFlowStore implements FlowStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #graceMs: number;
  readonly #now: () => number;

  constructor(redis: Redis, options: RedisFlowStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'parley:flow:';
    this.#graceMs = options.graceMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  async create(flow: FlowRecord): Promise<void> {
    const ttl = Math.max(1, flow.expiresAt - this.#now() + this.#graceMs);
    const created = await this.#redis.set(this.#prefix + flow.id, JSON.stringify(flow), 'PX', ttl, 'NX');
    if (created !== 'OK') throw new Error(`Flow ${flow.id} already exists.`);
  }

  async get(id: string): Promise<FlowRecord | undefined> {
    const raw = await this.#redis.get(this.#prefix + id);
    return raw === null ? undefined : (JSON.parse(raw) as FlowRecord);
  }

  async settle(id: string, settlement: FlowSettlement): Promise<boolean> {
    const changed = await this.#redis.eval(
      SETTLE,
      1,
      this.#prefix + id,
      JSON.stringify(settlement),
      String(this.#now()),
    );
    return changed === 1;
  }
}
