import { MemoryOnceStore, type OnceStore, runOnce } from '@parley/server';
import { RedisOnceStore } from '@parley/server/redis';
import { startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One contract, both stores: what ctx.once relies on to run a side effect exactly once.
let redis: Awaited<ReturnType<typeof startRedis>>;
let clients: Redis[] = [];
beforeAll(async () => {
  redis = await startRedis();
  clients = [0, 1].map(() => new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 }));
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

const TIMINGS = { leaseMs: 5_000, keepMs: 60_000, waitMs: 5_000 };

// Two handles on one store: for Redis, two connections, as two replicas have.
const stores: [string, () => [OnceStore, OnceStore]][] = [
  [
    'MemoryOnceStore',
    () => {
      const store = new MemoryOnceStore();
      return [store, store];
    },
  ],
  [
    'RedisOnceStore',
    () => {
      const prefix = `test:${Math.random()}:`;
      return [new RedisOnceStore(clients[0]!, { prefix }), new RedisOnceStore(clients[1]!, { prefix })];
    },
  ],
];

describe.each(stores)('%s', (_name, make) => {
  it('runs once when two requests race for the same key; both get the one value', async () => {
    const [a, b] = make();
    let runs = 0;
    const effect = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { booking: `B-${runs}` };
    };
    const values = await Promise.all([
      runOnce(a, 'call-1.book', effect, TIMINGS),
      runOnce(b, 'call-1.book', effect, TIMINGS),
    ]);
    expect(runs).toBe(1);
    expect(values).toEqual([{ booking: 'B-1' }, { booking: 'B-1' }]);
    // Later, a third request reads the recorded value.
    expect(await runOnce(b, 'call-1.book', effect, TIMINGS)).toEqual({ booking: 'B-1' });
    expect(runs).toBe(1);
  });

  it('runs again after a run that threw, and keeps keys apart', async () => {
    const [a, b] = make();
    await expect(
      runOnce(a, 'call-2.pay', () => Promise.reject(new Error('card declined')), TIMINGS),
    ).rejects.toThrow('card declined');
    expect(await runOnce(b, 'call-2.pay', () => 'paid', TIMINGS)).toBe('paid');
    expect(await runOnce(b, 'call-3.pay', () => 'paid again', TIMINGS)).toBe('paid again');
  });

  it('gives up with a clear error when another run holds the claim too long', async () => {
    const [a, b] = make();
    expect(await a.claim('call-4.slow', 10_000)).toEqual({ status: 'claimed' });
    await expect(runOnce(b, 'call-4.slow', () => 'never', { ...TIMINGS, waitMs: 200 })).rejects.toThrow(
      /still running in another request after 200 ms/,
    );
  });

  it('lets a claim lapse after its lease (a replica that died mid-run)', async () => {
    const [a, b] = make();
    expect(await a.claim('call-5.x', 50)).toEqual({ status: 'claimed' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await runOnce(b, 'call-5.x', () => 'second', TIMINGS)).toBe('second');
  });
});
