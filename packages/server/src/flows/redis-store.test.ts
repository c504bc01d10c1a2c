import { describe, expect, it } from 'vitest';
import { RedisFlowStore } from './redis-store.js';

describe('RedisFlowStore without an ioredis client', () => {
  it('names the fix instead of failing on first use', () => {
    expect(() => new RedisFlowStore(undefined as never)).toThrow(
      'RedisFlowStore needs an ioredis client (got undefined): npm install ioredis, then new RedisFlowStore(new Redis(process.env.REDIS_URL))',
    );
    expect(() => new RedisFlowStore('redis://127.0.0.1:6379' as never)).toThrow(
      /got a string; a connection URL goes to new Redis\(url\)\): npm install ioredis/,
    );
    expect(() => new RedisFlowStore({ get() {} } as never)).toThrow(
      /got an object without get, set and eval\): npm install ioredis/,
    );
  });
});
