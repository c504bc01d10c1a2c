/**
 * `@parley/server/redis`: the URL-flow store, the `ctx.once` store and the 2025-era session router
 * for a fleet of replicas, on Redis. Needs the optional peer dependency `ioredis` (`npm install ioredis`); the root entry never
 * loads it.
 */
export { RedisFlowStore, type RedisFlowStoreOptions } from './flows/redis-store.js';
export { RedisOnceStore, type RedisOnceStoreOptions } from './once/redis-once-store.js';
export { requireRedisClient } from './require-redis-client.js';
export { RedisSessionRouter, type RedisSessionRouterOptions } from './sessions/redis-session-router.js';
