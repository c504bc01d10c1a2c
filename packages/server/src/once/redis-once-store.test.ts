import { describe, expect, it } from 'vitest';
import { RedisOnceStore } from './redis-once-store.js';

describe('RedisOnceStore without an ioredis client', () => {
  it('names the fix instead of failing on first use', () => {
    expect(() => new RedisOnceStore(undefined as never)).toThrow(
      'RedisOnceStore needs an ioredis client (got undefined): npm install ioredis, then new RedisOnceStore(new Redis(process.env.REDIS_URL))',
    );
    expect(() => new RedisOnceStore('redis://127.0.0.1:6379' as never)).toThrow(
      /got a string; a connection URL goes to new Redis\(url\)\): npm install ioredis/,
    );
  });
});
