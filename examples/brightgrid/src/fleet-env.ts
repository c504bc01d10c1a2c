import type { FlowStore, SessionRouter } from '@parley/server';
import { RedisFlowStore, RedisSessionRouter } from '@parley/server/redis';
import { Redis } from 'ioredis';

/** What replicas of one fleet share, and how to let go of it. */
export interface FleetChoice {
  /** `undefined`: the server keeps flows in its own memory. */
  readonly flowStore: FlowStore | undefined;
  /** `undefined`: each replica serves only the 2025-era sessions it opened. */
  readonly sessionRouter: SessionRouter | undefined;
  close(): Promise<void>;
}

/**
 * The fleet's shared parts from the environment. With `REDIS_URL` set, replicas behind one load
 * balancer share their URL flows (a {@link RedisFlowStore}: a flow created on one replica is
 * completed on another's page and read by a third) and their 2025-era sessions (a
 * {@link RedisSessionRouter}: a session's requests may reach any replica, with no affinity);
 * otherwise nothing is shared (one process). `BRIGHTGRID_REPLICA` names the replica in Redis
 * (default: a random id); `BRIGHTGRID_SESSION_ROUTER=off` leaves sessions to balancer affinity.
 */
export function fleetFromEnv(env: NodeJS.ProcessEnv = process.env): FleetChoice {
  if (!env.REDIS_URL) return { flowStore: undefined, sessionRouter: undefined, close: async () => {} };
  const redis = new Redis(env.REDIS_URL);
  redis.on('error', () => {}); // ioredis reconnects by itself; the stores' calls report their own errors
  return {
    flowStore: new RedisFlowStore(redis),
    sessionRouter:
      env.BRIGHTGRID_SESSION_ROUTER === 'off'
        ? undefined
        : new RedisSessionRouter(redis, {
            ...(env.BRIGHTGRID_REPLICA && { name: env.BRIGHTGRID_REPLICA }),
          }),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
