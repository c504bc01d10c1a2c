// One replica of a fleet that serves both eras behind any load balancer, with no affinity:
//
//   REDIS_URL=redis://127.0.0.1:6379 PARLEY_STATE_KEYS="k1:$(openssl rand -base64 32)" \
//     PORT=4101 node packages/server/examples/dist/fleet-replica.js
//
// Start as many as you like on other ports with the same REDIS_URL and PARLEY_STATE_KEYS, and put
// nginx (or any balancer) in front. 2026-07-28 rounds carry their own sealed state; a 2025-era
// session's requests reach whichever replica the balancer picks and are passed to the one holding
// the session over Redis.
import { ask, createServer } from '@parley/server';
import { RedisOnceStore, RedisSessionRouter } from '@parley/server/redis';
import { Redis } from 'ioredis';

/** A server whose 2025-era sessions and `ctx.once` records are shared through Redis. */
export function fleetReplica(redis: Redis, name: string) {
  const server = createServer({
    name: 'fleet-example',
    version: '1.0.0',
    sessions: { router: new RedisSessionRouter(redis, { name }) },
    once: { store: new RedisOnceStore(redis) },
  });
  server.tool('greet', {}, async (_args, ctx) => {
    const who = await ctx.elicit('What is your name?', ask.text(), { key: 'name' });
    return who.action === 'accept' ? `Hello, ${who.value}!` : 'Hello!';
  });
  return server;
}

if (process.env.REDIS_URL && process.env.PORT) {
  const redis = new Redis(process.env.REDIS_URL);
  const server = fleetReplica(redis, `replica-${process.env.PORT}`);
  const listening = await server.listen({ port: Number(process.env.PORT) });
  process.stdout.write(`${listening.url}\n`);
  process.once('SIGTERM', () => void listening.close().then(() => redis.quit()));
}
