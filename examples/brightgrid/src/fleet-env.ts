import type { FlowStore, SessionRouter } from '@parley/server';
import { RedisFlowStore, RedisSessionRouter } from '@parley/server/redis';
import { Redis } from 'ioredis';
import { RedisSignInThrottle } from './web/redis-sign-in-throttle.js';
import type { SignInLimiter } from './web/sign-in-throttle.js';

/** What replicas of one fleet share, and how to let go of it. */
export interface FleetChoice {
  /** `undefined`: the server keeps flows in its own memory. */
  readonly flowStore: FlowStore | undefined;
  /** `undefined`: each replica serves only the 2025-era sessions it opened. */
  readonly sessionRouter: SessionRouter | undefined;
  /** What this replica's session ids start with (its name), so a balancer can route them back. */
  readonly sessionIdPrefix: string | undefined;
  /** `undefined`: failed sign-ins are counted in this process only. */
  readonly signInThrottle: SignInLimiter | undefined;
  /**
   * Connect links one user may hold, used ones included (`BRIGHTGRID_KEPT_LINKS_PER_USER`); `undefined`:
   * the server's default (50). A load test whose two users stand for hundreds of people raises it.
   */
  readonly keptLinksPerUser: number | undefined;
  close(): Promise<void>;
}

/**
 * The fleet's shared parts from the environment. With `REDIS_URL` set, replicas behind one load
 * balancer share their URL flows (a {@link RedisFlowStore}: a flow created on one replica is
 * completed on another's page and read by a third), their 2025-era sessions (a
 * {@link RedisSessionRouter}: a session's requests may reach any replica, with no affinity) and
 * their count of failed sign-ins (a {@link RedisSignInThrottle}: five wrong passwords spread over
 * the replicas are five); otherwise nothing is shared (one process). `BRIGHTGRID_REPLICA` names the replica: in Redis, and
 * at the start of its session ids; `BRIGHTGRID_SESSION_ROUTER=off` leaves sessions to balancer
 * affinity on that name.
 */
export function fleetFromEnv(env: NodeJS.ProcessEnv = process.env): FleetChoice {
  const sessionIdPrefix = env.BRIGHTGRID_REPLICA || undefined;
  const keptLinksPerUser = keptLinksFrom(env.BRIGHTGRID_KEPT_LINKS_PER_USER);
  if (!env.REDIS_URL)
    return {
      flowStore: undefined,
      sessionRouter: undefined,
      sessionIdPrefix,
      signInThrottle: undefined,
      keptLinksPerUser,
      close: async () => {},
    };
  const redis = new Redis(env.REDIS_URL);
  redis.on('error', () => {}); // ioredis reconnects by itself; the stores' calls report their own errors
  return {
    flowStore: new RedisFlowStore(redis),
    sessionIdPrefix,
    signInThrottle: new RedisSignInThrottle(redis),
    keptLinksPerUser,
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

function keptLinksFrom(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const kept = Number(value);
  if (!Number.isSafeInteger(kept) || kept < 1)
    throw new Error(`BRIGHTGRID_KEPT_LINKS_PER_USER must be a whole number of 1 or more (got ${value}).`);
  return kept;
}
