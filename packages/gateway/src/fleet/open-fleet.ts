import { KeyRing } from '@parley/core';
import type { Logger } from '@parley/server';
import { RedisFlowStore, RedisSessionRouter } from '@parley/server/redis';
import type { Redis } from 'ioredis';
import { GatewayConfigError } from '../config/read-config.js';
import type { FleetConfig } from '../config/schema.js';
import type { GatewayOptions } from '../gateway.js';
import { RedisLiveCallRouter } from './redis-live-call-router.js';

/** A fleet's shared parts for one replica, opened; pass `options` to `createGateway`. */
export interface GatewayFleet {
  /**
   * What `createGateway` takes for this replica: the router that resumes a held call on the
   * replica that holds it, question pages in Redis, and 2025-era host sessions shared.
   */
  readonly options: Required<Pick<GatewayOptions, 'router' | 'server'>>;
  /** Lets go of Redis (after `gateway.close()`). */
  close(): Promise<void>;
}

/** How long opening the fleet waits for Redis before it says so. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens what every replica of a fleet shares, from the configuration's `fleet` section: checks the
 * key ring, connects to Redis (`ioredis`, an optional peer dependency; or the client given) and
 * makes the Redis live-call router, question-page store and session router for this replica.
 * `parley gateway` does this for a configuration with `fleet`.
 *
 * @example
 * import { createGateway, loadGatewayConfig } from '@parley/gateway';
 * import { openGatewayFleet } from '@parley/gateway/redis';
 *
 * const config = await loadGatewayConfig('gateway.json');
 * const fleet = config.fleet && (await openGatewayFleet(config.fleet));
 * const gateway = createGateway(config, { ...fleet?.options });
 * await gateway.listen({ port: 4000 });
 */
export async function openGatewayFleet(
  fleet: FleetConfig,
  options: { readonly log?: Logger; readonly redis?: Redis } = {},
): Promise<GatewayFleet> {
  try {
    await KeyRing.create(KeyRing.parse(fleet.stateKeys));
  } catch (error) {
    throw new GatewayConfigError('The gateway configuration', [
      `fleet.stateKeys: ${error instanceof Error ? error.message : String(error)}`,
    ]);
  }
  const owned = options.redis === undefined;
  const redis = options.redis ?? (await connect(fleet.redis));
  const log = options.log;
  const router = new RedisLiveCallRouter(redis, {
    name: fleet.replica,
    keys: fleet.stateKeys,
    ...(log && { log }),
  });
  const sessions = new RedisSessionRouter(redis, {
    name: fleet.replica,
    keys: fleet.stateKeys,
    ...(log && { log }),
  });
  const close = async () => {
    await router.close();
    await sessions.close();
    if (owned) await redis.quit().catch(() => redis.disconnect());
  };
  try {
    await withTimeout(router.ready(), `Redis at ${where(fleet.redis)} did not answer`);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    options: {
      router,
      server: { questionPages: { store: new RedisFlowStore(redis) }, sessions: { router: sessions } },
    },
    close,
  };
}

async function connect(url: string): Promise<Redis> {
  let Client: typeof import('ioredis').Redis;
  try {
    ({ Redis: Client } = await import('ioredis'));
  } catch {
    throw new GatewayConfigError('The gateway configuration', [
      'fleet: a fleet of gateways shares Redis through ioredis, which is not installed; npm install ioredis',
    ]);
  }
  const redis = new Client(url, { lazyConnect: false });
  redis.on('error', () => {}); // ioredis reconnects by itself; each use reports its own failure
  try {
    await withTimeout(redis.ping(), `Redis at ${where(url)} did not answer`);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

async function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what} within ${CONNECT_TIMEOUT_MS / 1000} s; start it, or fix fleet.redis in the configuration.`,
          ),
        ),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Host and port of a Redis URL, never its credentials. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'the configured URL';
  }
}
