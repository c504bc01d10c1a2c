import type { Redis } from 'ioredis';

/**
 * Checks up front that a Redis store got an ioredis client (without ioredis installed a caller may
 * pass a URL or nothing), naming the fix instead of failing on first use.
 */
export function requireRedisClient(store: string, value: unknown): Redis {
  if (isRedisClient(value)) return value;
  throw new TypeError(
    `${store} needs an ioredis client (got ${describe(value)}): npm install ioredis, then ` +
      `new ${store}(new Redis(process.env.REDIS_URL)) with Redis imported from "ioredis".`,
  );
}

/** What the Redis stores call on their client. */
function isRedisClient(value: unknown): value is Redis {
  const client = value as Partial<Record<'get' | 'set' | 'eval', unknown>> | null | undefined;
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof client.get === 'function' &&
    typeof client.set === 'function' &&
    typeof client.eval === 'function'
  );
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return 'a string; a connection URL goes to new Redis(url)';
  return typeof value === 'object' ? 'an object without get, set and eval' : `a ${typeof value}`;
}
