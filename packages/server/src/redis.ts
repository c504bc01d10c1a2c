/**
 * `@parley/server/redis`: the URL-flow store, the `ctx.once` store and the 2025-era session router
 * for a fleet of replicas, on Redis, and the parts of a sealed fleet bus (`BusSeal`, `SeenMessages`,
 * `DropLog`) that the session router and the gateway's live-call router share. Needs the optional
 * peer dependency `ioredis` (`npm install ioredis`); the root entry never loads it.
 */

export { BusInbox } from './fleet-bus/bus-inbox.js';
export {
  type BusFormat,
  type BusHeader,
  type BusRead,
  BusSeal,
  deriveKeyRing,
  MESSAGE_ID,
  REPLICA_ID,
} from './fleet-bus/bus-seal.js';
export { DropLog } from './fleet-bus/drop-log.js';
export { SeenMessages } from './fleet-bus/seen-messages.js';
export { RedisFlowStore, type RedisFlowStoreOptions } from './flows/redis-store.js';
export { RedisOnceStore, type RedisOnceStoreOptions } from './once/redis-once-store.js';
export { requireRedisClient } from './require-redis-client.js';
export { RedisSessionRouter, type RedisSessionRouterOptions } from './sessions/redis-session-router.js';
