import { type FlowRecord, type FlowStore, MemoryFlowStore } from '@parley/server';
import { RedisFlowStore } from '@parley/server/redis';
import { startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One contract, both stores: what the URL-flow kit relies on.
let now = 1_800_000_000_000;
const clock = () => now;
const flow = (id: string, overrides: Partial<FlowRecord> = {}): FlowRecord => ({
  id,
  kind: 'account',
  principal: 'alice',
  server: 'shop',
  data: { plan: 'gold' },
  createdAt: now,
  expiresAt: now + 60_000,
  status: 'pending',
  ...overrides,
});

let redis: Awaited<ReturnType<typeof startRedis>>;
let client: Redis;
beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

const stores: [string, () => FlowStore][] = [
  ['MemoryFlowStore', () => new MemoryFlowStore({ now: clock })],
  ['RedisFlowStore', () => new RedisFlowStore(client, { prefix: `test:${Math.random()}:`, now: clock })],
];

describe.each(stores)('%s', (_name, make) => {
  it('creates, reads and settles a flow exactly once', async () => {
    const store = make();
    await store.create(flow('a'));
    expect(await store.get('a')).toEqual(flow('a'));
    expect(await store.settle('a', { status: 'done', result: { account: 'alice@shop' } })).toBe(true);
    expect(await store.get('a')).toMatchObject({ status: 'done', result: { account: 'alice@shop' } });
    expect(await store.settle('a', { status: 'done', result: { account: 'mallory@shop' } })).toBe(false);
    expect(await store.settle('a', { status: 'cancelled' })).toBe(false);
    expect(await store.get('a')).toMatchObject({ status: 'done', result: { account: 'alice@shop' } });
  });

  it('refuses to create the same id twice', async () => {
    const store = make();
    await store.create(flow('b'));
    await expect(store.create(flow('b', { principal: 'mallory' }))).rejects.toThrow(/already exists/);
    expect(await store.get('b')).toMatchObject({ principal: 'alice' });
  });

  it('does not settle an expired or unknown flow', async () => {
    const store = make();
    await store.create(flow('c', { expiresAt: now + 1_000 }));
    now += 2_000;
    expect(await store.settle('c', { status: 'done', result: null })).toBe(false);
    expect(await store.settle('missing', { status: 'done', result: null })).toBe(false);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('lets only one of many concurrent settlements win', async () => {
    const store = make();
    await store.create(flow('d', { expiresAt: now + 60_000 }));
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        store.settle('d', { status: 'done', result: { winner: index } }),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = outcomes.indexOf(true);
    expect(await store.get('d')).toMatchObject({ result: { winner } });
  });

  // Issue 15, finding 6: no cap on pending flows per user.
  it('caps each user’s pending flows, atomically; settled and expired ones free a place', async () => {
    const store = make();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.create(flow(`p${i}`, { principal: 'erin' }), 3)),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    const created = results.flatMap((ok, i) => (ok ? [`p${i}`] : []));
    const refused = results.flatMap((ok, i) => (ok ? [] : [`p${i}`]));
    for (const id of refused) expect(await store.get(id)).toBeUndefined();
    // Another user has a quota of their own.
    expect(await store.create(flow('q0', { principal: 'frank' }), 3)).toBe(true);
    // A settled flow is no longer pending.
    expect(await store.settle(created[0]!, { status: 'cancelled' })).toBe(true);
    expect(await store.create(flow('p8', { principal: 'erin' }), 3)).toBe(true);
    expect(await store.create(flow('p9', { principal: 'erin' }), 3)).toBe(false);
    // Nor is an expired one.
    await store.create(flow('r0', { principal: 'gina', expiresAt: now + 1_000 }), 1);
    expect(await store.create(flow('r1', { principal: 'gina' }), 1)).toBe(false);
    now += 2_000;
    expect(
      await store.create(flow('r2', { principal: 'gina', createdAt: now, expiresAt: now + 60_000 }), 1),
    ).toBe(true);
  });
});

// Issue 41, finding 3: settled flows were kept whole for their grace period, outside every cap.
describe.each(stores)('%s keeps what a used flow needs, and counts it', (_name, make) => {
  it('drops the data of a settled flow', async () => {
    const store = make();
    await store.create(flow('s1', { data: { question: 'x'.repeat(10_000) } }));
    await store.create(flow('s2', { data: { question: 'y' } }));
    expect(await store.settle('s1', { status: 'cancelled' })).toBe(true);
    expect(await store.settle('s2', { status: 'done', result: { action: 'decline' } })).toBe(true);
    expect(await store.get('s1')).toMatchObject({ status: 'cancelled', data: null });
    expect(await store.get('s2')).toMatchObject({
      status: 'done',
      result: { action: 'decline' },
      data: null,
    });
  });

  it('caps the flows a user holds, settled ones too, until they are dropped', async () => {
    const store = make();
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) {
      const id = `k${index}`;
      const created = await store.create(flow(id, { principal: 'hank', expiresAt: now + 1_000 }), 20, 4);
      if (created) {
        ids.push(id);
        expect(await store.settle(id, { status: 'cancelled' })).toBe(true);
      }
    }
    expect(ids).toEqual(['k0', 'k1', 'k2', 'k3']);
    // Another user holds flows of their own.
    expect(await store.create(flow('k-ivy', { principal: 'ivy' }), 20, 4)).toBe(true);
    // Kept past expiry while their links read as expired, then dropped with them.
    now += 2_000;
    expect(await store.create(flow('k6', { principal: 'hank' }), 20, 4)).toBe(false);
    now += 15 * 60_000;
    expect(
      await store.create(flow('k7', { principal: 'hank', createdAt: now, expiresAt: now + 60_000 }), 20, 4),
    ).toBe(true);
  });
});

describe('MemoryFlowStore as a whole', () => {
  it('makes room by dropping the oldest used flow, and refuses only when every flow is pending', async () => {
    const store = new MemoryFlowStore({ now: clock, maxFlows: 3 });
    for (const id of ['m0', 'm1', 'm2']) expect(await store.create(flow(id, { principal: id }))).toBe(true);
    expect(await store.create(flow('m3', { principal: 'm3' }))).toBe(false);
    expect(store.size).toBe(3);
    await store.settle('m1', { status: 'cancelled' });
    await store.settle('m0', { status: 'cancelled' });
    expect(await store.create(flow('m3', { principal: 'm3' }))).toBe(true);
    expect(await store.get('m0')).toBeUndefined();
    expect(await store.get('m1')).toMatchObject({ status: 'cancelled' });
    expect(store.size).toBe(3);
  });
});

describe.each(stores)('%s values (parked calls, sealed answers)', (_name, make) => {
  it('keeps, replaces and deletes a value', async () => {
    const store = make();
    expect(await store.getValue!('v')).toBeUndefined();
    await store.putValue!('v', 'one', now + 60_000);
    expect(await store.getValue!('v')).toBe('one');
    await store.putValue!('v', 'two', now + 60_000);
    expect(await store.getValue!('v')).toBe('two');
    await store.deleteValue!('v');
    expect(await store.getValue!('v')).toBeUndefined();
    await store.deleteValue!('never-kept');
  });

  it('keeps values apart from flows of the same name', async () => {
    const store = make();
    await store.create(flow('same'));
    await store.putValue!('same', 'a value', now + 60_000);
    expect(await store.get('same')).toMatchObject({ id: 'same', status: 'pending' });
    expect(await store.getValue!('same')).toBe('a value');
  });
});

// Issue 41, findings 4 and 5: what racing answers and racing retries leave.
describe.each(stores)('%s under races', (_name, make) => {
  it('keeps the value of the settlement that won, and of no other', async () => {
    const store = make();
    await store.create(flow('race'));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.settleKeeping!(
          'race',
          { status: 'done', result: { winner: index } },
          {
            key: 'answer:race',
            value: `secret ${index}`,
            expiresAt: now + 60_000,
          },
        ),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = outcomes.indexOf(true);
    expect(await store.get('race')).toMatchObject({ result: { winner } });
    expect(await store.getValue!('answer:race')).toBe(`secret ${winner}`);
  });

  it('gives a value to one of many racing takers', async () => {
    const store = make();
    await store.putValue!('parked', 'the call', now + 60_000);
    const taken = await Promise.all(Array.from({ length: 6 }, () => store.takeValue!('parked')));
    expect(taken.filter((value) => value === 'the call')).toHaveLength(1);
    expect(await store.getValue!('parked')).toBeUndefined();
  });
});

describe('MemoryFlowStore values', () => {
  it('forgets a value at its expiry', async () => {
    const store = new MemoryFlowStore({ now: clock });
    await store.putValue('w', 'soon gone', now + 1_000);
    now += 1_000;
    expect(await store.getValue('w')).toBeUndefined();
  });
});

describe('RedisFlowStore', () => {
  it('lets Redis forget a value at its expiry', async () => {
    const store = new RedisFlowStore(client, { prefix: `vttl:${Math.random()}:`, now: Date.now });
    await store.putValue('w', 'soon gone', Date.now() + 50);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await store.getValue('w')).toBeUndefined();
  });

  it('shares flows between replicas (two connections, one Redis)', async () => {
    const prefix = `shared:${Math.random()}:`;
    const other = new Redis(redis.url);
    try {
      const a = new RedisFlowStore(client, { prefix, now: clock });
      const b = new RedisFlowStore(other, { prefix, now: clock });
      await a.create(flow('e', { expiresAt: now + 60_000 }));
      expect(await b.settle('e', { status: 'failed', reason: 'wrong password' })).toBe(true);
      expect(await a.get('e')).toMatchObject({ status: 'failed', reason: 'wrong password' });
    } finally {
      other.disconnect();
    }
  });

  it('lets Redis forget a flow after its grace period', async () => {
    const store = new RedisFlowStore(client, { prefix: `ttl:${Math.random()}:`, graceMs: 50, now: Date.now });
    await store.create(flow('f', { expiresAt: Date.now() + 50 }));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await store.get('f')).toBeUndefined();
  });
});
