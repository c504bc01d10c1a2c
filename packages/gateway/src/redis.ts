/**
 * `@parley/gateway/redis`: a fleet of gateways on Redis: the router that resumes a held call on the
 * replica that holds it, and `openGatewayFleet` for a configuration's `fleet` section. Needs the
 * optional peer dependency `ioredis` (`npm install ioredis`); the root entry never loads it.
 */
export { type GatewayFleet, openGatewayFleet } from './fleet/open-fleet.js';
export { RedisLiveCallRouter, type RedisLiveCallRouterOptions } from './fleet/redis-live-call-router.js';
