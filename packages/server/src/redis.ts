/**
 * `@parley/server/redis`: the URL-flow store and the `ctx.once` store for a fleet of replicas, on
 * Redis. Needs the optional peer dependency `ioredis` (`npm install ioredis`); the root entry never
 * loads it.
 */
export { RedisFlowStore, type RedisFlowStoreOptions } from './flows/redis-store.js';
export { RedisOnceStore, type RedisOnceStoreOptions } from './once/redis-once-store.js';
