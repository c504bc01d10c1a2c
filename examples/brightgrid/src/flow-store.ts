import type { FlowStore } from '@parley/server';
import { RedisFlowStore } from '@parley/server/redis';
import { Redis } from 'ioredis';

/** Where URL flows live, and how to let go of it. */
export interface FlowStoreChoice {
  /** `undefined`: the server keeps flows in its own memory. */
  readonly store: FlowStore | undefined;
  close(): Promise<void>;
}

/**
 * The flow store from the environment: with `REDIS_URL` set, a {@link RedisFlowStore}, so replicas
 * behind one load balancer share their URL flows (a flow created on one replica is completed on
 * another's page and read by a third); otherwise none (memory, for a single process).
 */
export function flowStoreFromEnv(env: NodeJS.ProcessEnv = process.env): FlowStoreChoice {
  if (!env.REDIS_URL) return { store: undefined, close: async () => {} };
  const redis = new Redis(env.REDIS_URL);
  return {
    store: new RedisFlowStore(redis),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
