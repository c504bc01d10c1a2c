// RedisLiveCallRouter against a real redis-server: replicas of one process each (their own ioredis
// clients), resumes passed to the replica a handle names, and everything that can go wrong on the way;
// what the held call says on the way back and the host's cancel on the way there, every message
// sealed with the fleet's keys; and openGatewayFleet, which opens a replica's shared parts from a
// configuration's fleet section.
import { createGateway, type LiveListeners, type Resume, type Step } from '@parley/gateway';
import {
  openGatewayFleet,
  RedisLiveCallRouter,
  type RedisLiveCallRouterOptions,
} from '@parley/gateway/redis';
import { ToolError } from '@parley/server';
import { freePort, type RedisServer, startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const secret = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const KEYS = `k1:${secret(7)}`;
let redis: RedisServer;
const clients: Redis[] = [];
const routers: RedisLiveCallRouter[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.allSettled(routers.splice(0).map((router) => router.close()));
  await Promise.allSettled(clients.splice(0).map((client) => client.quit()));
});
afterAll(async () => {
  await redis?.stop();
});

function client(): Redis {
  const made = new Redis(redis.url);
  clients.push(made);
  return made;
}

/** A replica's router (on the fleet's keys unless told), serving with `serve` (if given), its log lines and the cancels it got kept. */
async function replica(
  name: string,
  serve?: (request: Resume, listeners: LiveListeners) => Promise<Step>,
  options: RedisLiveCallRouterOptions = {},
) {
  const logs: string[] = [];
  const cancels: [string, string | undefined][] = [];
  const router = new RedisLiveCallRouter(client(), {
    name,
    keys: KEYS,
    log: (level, message) => logs.push(`${level} ${message}`),
    ...options,
  });
  routers.push(router);
  if (serve) router.serve(serve, (handle, owner) => cancels.push([handle, owner]));
  await router.ready();
  return { router, logs, cancels };
}

/** Everything published on a replica's channel from now on, as it travels. */
async function overhear(router: RedisLiveCallRouter): Promise<string[]> {
  const heard: string[] = [];
  const spy = client().duplicate();
  clients.push(spy);
  spy.on('message', (_channel, text: string) => heard.push(text));
  await spy.subscribe(channelOf(router));
  return heard;
}

const channelOf = (router: RedisLiveCallRouter) => `parley:gateway:live:${router.replica}`;
/** A sealed message's kind, as its header shows it (`pb1.<kind>.<id>.<from>.<token>`). */
const kindOf = (text: string) => text.split('.')[1];
const DOES_NOT_OPEN =
  'Dropped a message that does not open with the fleet keys (forged, altered, or meant for another replica) on the gateway fleet bus.';

const handleOf = (router: RedisLiveCallRouter) => `${router.replica}.${'h'.repeat(43)}`;
const resumeOf = (handle: string, holdMs = 1_000): Resume => ({
  handle,
  owner: 'alice',
  round: 1,
  answers: { q1: { result: { action: 'accept', content: { boxes: 2 } } } },
  holdMs,
});
const asked = (handle: string): Step => ({
  kind: 'ask',
  requests: { q1: { method: 'elicitation/create', params: { message: 'Which day?' } } },
  via: { kind: 'live', handle, round: 2, revision: '2025-11-25' },
});

describe('RedisLiveCallRouter', () => {
  it('passes a resume to the replica its handle names, and only there, and brings the step back', async () => {
    const served: Record<string, Resume[]> = { gw1: [], gw3: [] };
    const holder = await replica('gw1', async (request) => {
      served.gw1!.push(request);
      return asked(request.handle);
    });
    await replica('gw3', async (request) => {
      served.gw3!.push(request);
      return asked(request.handle);
    });
    const { router: sender } = await replica('gw2');
    expect(holder.router.replica).toMatch(/^gw1-[0-9a-f-]{36}$/);
    const handle = handleOf(holder.router);
    expect(await sender.forward(holder.router.replica, resumeOf(handle))).toEqual(asked(handle));
    expect(served.gw1).toEqual([resumeOf(handle)]);
    expect(served.gw3).toEqual([]);
    expect(sender.waiting).toBe(0);
  });

  it('brings back the error the resume ended with, by kind', async () => {
    const holder = await replica('gw1', async (request) => {
      if (request.round === 1)
        throw new ToolError('This call belongs to another user; call again to start your own.');
      throw new Error('the upstream session closed');
    });
    const { router: sender } = await replica('gw2');
    const handle = handleOf(holder.router);
    const refused = sender.forward(holder.router.replica, resumeOf(handle));
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow('This call belongs to another user; call again to start your own.');
    await expect(sender.forward(holder.router.replica, { ...resumeOf(handle), round: 2 })).rejects.toThrow(
      'The upstream call held by gateway replica gw1 failed (the upstream session closed); call again to start over.',
    );
  });

  it('says at once when the replica a handle names is gone', async () => {
    const holder = await replica('gw1', async (request) => asked(request.handle));
    const { router: sender } = await replica('gw2');
    const replicaId = holder.router.replica;
    await holder.router.close();
    await expect(sender.forward(replicaId, resumeOf(`${replicaId}.${'h'.repeat(43)}`))).rejects.toThrow(
      'The gateway replica gw1 that held this call is gone (it stopped, or lost its connection to the fleet), and the upstream call with it; call again to start over.',
    );
  });

  it('ends a resume whose replica goes away while it waits', async () => {
    let reached!: () => void;
    const inside = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const holder = await replica('gw1', () => {
      reached();
      return new Promise<Step>(() => {}); // the upstream has nothing yet
    });
    const { router: sender } = await replica('gw2', undefined, { checkMs: 100 });
    const waiting = sender.forward(holder.router.replica, resumeOf(handleOf(holder.router), 60_000));
    await inside;
    await holder.router.close(); // its connection to Redis ends, as when the process dies
    await expect(waiting).rejects.toThrow(/^The gateway replica gw1 that held this call is gone/);
    expect(sender.waiting).toBe(0);
  });

  it('gives up on a replica that does not answer within the hold and the answer timeout', async () => {
    const holder = await replica('gw1', () => new Promise<Step>(() => {}));
    const { router: sender } = await replica('gw2', undefined, { answerTimeoutMs: 300 });
    await expect(
      sender.forward(holder.router.replica, resumeOf(handleOf(holder.router), 200)),
    ).rejects.toThrow(
      'The gateway replica gw1 that holds this call did not answer within 0.5 s; call again to start over.',
    );
  });

  it('caps what it sends and reads', async () => {
    const big = 'x'.repeat(5_000);
    const holder = await replica(
      'gw1',
      async () => ({ kind: 'result', result: { content: [{ type: 'text', text: big }] } }),
      { maxMessageChars: 2_000 },
    );
    const { router: sender } = await replica('gw2', undefined, { maxMessageChars: 2_000 });
    const handle = handleOf(holder.router);
    await expect(sender.forward(holder.router.replica, resumeOf(handle))).rejects.toThrow(
      /^The upstream's answer is too large to pass between the gateway's replicas \(\d+ characters; at most 2000\)\.$/,
    );
    const answers = { q1: { result: { action: 'accept', content: { note: big } } } };
    await expect(sender.forward(holder.router.replica, { ...resumeOf(handle), answers })).rejects.toThrow(
      /^These answers are too large to pass to the gateway replica that holds the call \(\d+ characters; at most 2000\)\.$/,
    );
  });

  it('serves a resume only on the replica it was sealed for: copied onto another channel, it does not open', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const served: Resume[] = [];
    const holder = await replica('gw1', async (request) => {
      served.push(request);
      await held;
      return asked(request.handle);
    });
    // A replica of the fleet (it has the keys) answering, by a bug, resumes it was never sent.
    const other = await replica('gw3', async (request) => asked(request.handle));
    const sender = await replica('gw2');
    const handle = handleOf(holder.router);
    const toHolder = await overhear(holder.router);
    const waiting = sender.router.forward(holder.router.replica, resumeOf(handle));
    await expect.poll(() => served.length).toBe(1);
    // The resume, copied onto the other replica's channel, does not open there (sealed for the holder's).
    await client().publish(channelOf(other.router), toHolder[0]!);
    await expect.poll(() => other.logs).toEqual([`warn ${DOES_NOT_OPEN}`]);
    release();
    expect(await waiting).toEqual(asked(handle));
    expect(sender.logs).toEqual([]);
    expect(served).toHaveLength(1);
  });

  it('drops and logs what is not sealed with the fleet keys, and goes on serving', async () => {
    const served: Resume[] = [];
    const serve = async (request: Resume) => {
      served.push(request);
      return asked(request.handle);
    };
    const publisher = client();
    // Junk, and a message as the bus carried them before it was sealed.
    const first = await replica('gw1', serve);
    await publisher.publish(channelOf(first.router), 'not json at all \u001b[2J');
    const plain = JSON.stringify({
      t: 'resume',
      id: 'forged-1',
      from: 'gw2-1',
      until: Date.now() + 10_000,
      resume: { handle: handleOf(first.router), owner: 'alice', round: 1, answers: null, holdMs: 1_000 },
    });
    await publisher.publish(channelOf(first.router), plain);
    await expect
      .poll(() => first.logs)
      .toEqual([
        'warn Dropped a message that is not sealed for the gateway fleet bus on the gateway fleet bus.',
      ]);
    expect(first.logs.join('\n')).not.toContain('\u001b');

    // A replica with other keys (whoever can publish on Redis, without the fleet's keys) forges a resume.
    const second = await replica('gw1', serve);
    const forger = await replica('gw9', undefined, { keys: `k1:${secret(8)}`, answerTimeoutMs: 200 });
    await expect(
      forger.router.forward(second.router.replica, resumeOf(handleOf(second.router), 100)),
    ).rejects.toThrow(/^The gateway replica gw1 that holds this call did not answer within 0\.3 s/);
    expect(second.logs).toEqual([`warn ${DOES_NOT_OPEN}`]);

    // A replica whose key ring lacks the fleet's key: its operator is told what to check.
    const third = await replica('gw1', serve);
    const stray = await replica('gw8', undefined, { keys: `k9:${secret(7)}`, answerTimeoutMs: 200 });
    await expect(
      stray.router.forward(third.router.replica, resumeOf(handleOf(third.router), 100)),
    ).rejects.toThrow(/did not answer within/);
    expect(third.logs).toEqual([
      'warn Dropped a message sealed with a key this replica does not have (is fleet.stateKeys the same on every replica?) on the gateway fleet bus.',
    ]);
    expect(served).toEqual([]);

    // And each goes on serving the fleet.
    const { router: sender } = await replica('gw2');
    for (const holder of [first, second, third])
      expect(await sender.forward(holder.router.replica, resumeOf(handleOf(holder.router)))).toEqual(
        asked(handleOf(holder.router)),
      );
    expect(served).toHaveLength(3);
  });

  it('serves a resume once, however often or late it is replayed, and drops a replayed reply', async () => {
    const served: Resume[] = [];
    const serve = async (request: Resume) => {
      served.push(request);
      return asked(request.handle);
    };
    const holder = await replica('gw1', serve);
    const sender = await replica('gw2');
    const handle = handleOf(holder.router);
    const [toHolder, toSender] = await Promise.all([overhear(holder.router), overhear(sender.router)]);
    expect(await sender.router.forward(holder.router.replica, resumeOf(handle))).toEqual(asked(handle));
    await expect.poll(() => toSender.length).toBe(1);
    const [resume, step] = [toHolder[0]!, toSender[0]!];
    expect([kindOf(resume), kindOf(step)]).toEqual(['resume', 'step']);
    const publisher = client();
    for (let i = 0; i < 3; i++) await publisher.publish(channelOf(holder.router), resume);
    await publisher.publish(channelOf(sender.router), step);
    await expect
      .poll(() => holder.logs)
      .toEqual(['warn Dropped a copy of a resume already acted on (replayed) on the gateway fleet bus.']);
    await expect
      .poll(() => sender.logs)
      .toEqual([
        'info Dropped a reply nobody here waits for (it came too late, or is a copy) on the gateway fleet bus.',
      ]);
    expect(served).toHaveLength(1);

    // Replayed after its sender stopped waiting: its deadline (sealed with it) refuses it.
    const later = await replica('gw1', serve);
    const hurried = await replica('gw2', undefined, { answerTimeoutMs: 50 });
    const toLater = await overhear(later.router);
    await hurried.router.forward(later.router.replica, resumeOf(handleOf(later.router), 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publisher.publish(channelOf(later.router), toLater[0]!);
    await expect
      .poll(() => later.logs)
      .toEqual([
        'info Dropped a resume that came after its sender stopped waiting on the gateway fleet bus.',
      ]);
    expect(served).toHaveLength(2);
  });

  it('brings back what the held call says while the resume waits, in order and before the step, each note once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holder = await replica('gw1', async (request, listeners) => {
      listeners.progress?.({ progress: 1, total: 3, message: 'packing' });
      listeners.log?.({ level: 'info', data: { packed: 1 }, logger: 'desk' });
      listeners.urlComplete?.('upstream-flow-7');
      await held;
      listeners.progress?.({ progress: 3, total: 3 });
      return asked(request.handle);
    });
    const sender = await replica('gw2');
    const heard: unknown[] = [];
    const listeners: LiveListeners = {
      progress: (params) => heard.push(['progress', params]),
      log: (params) => heard.push(['log', params]),
      urlComplete: (id) => heard.push(['url', id]),
    };
    const toSender = await overhear(sender.router);
    const handle = handleOf(holder.router);
    const waiting = sender.router
      .forward(holder.router.replica, resumeOf(handle, 5_000), listeners)
      .then((step) => heard.push(['step', step]));
    await expect.poll(() => heard.length).toBe(3);
    // A note replayed while the resume still waits is not passed on twice.
    expect(toSender.map(kindOf)).toEqual(['note', 'note', 'note']);
    await client().publish(channelOf(sender.router), toSender[0]!);
    await expect
      .poll(() => sender.logs)
      .toEqual(['warn Dropped a copy of a note already passed on (replayed) on the gateway fleet bus.']);
    release();
    await waiting;
    expect(heard).toEqual([
      ['progress', { progress: 1, total: 3, message: 'packing' }],
      ['log', { level: 'info', data: { packed: 1 }, logger: 'desk' }],
      ['url', 'upstream-flow-7'],
      ['progress', { progress: 3, total: 3 }],
      ['step', asked(handle)],
    ]);
    // Nothing of it travels in the clear.
    expect(toSender.join('\n')).not.toMatch(/packing|packed|upstream-flow-7|Which day/);
  });

  it('caps what one resume brings back, so a chatty upstream or a buggy peer cannot flood the host', async () => {
    const holder = await replica('gw1', async (request, listeners) => {
      listeners.log?.({ level: 'info', data: 'x'.repeat(70_000) });
      for (let i = 1; i <= 1_005; i++) listeners.progress?.({ progress: i });
      return asked(request.handle);
    });
    const sender = await replica('gw2');
    const progress: number[] = [];
    const logs: unknown[] = [];
    const step = await sender.router.forward(holder.router.replica, resumeOf(handleOf(holder.router)), {
      progress: (params) => progress.push(params.progress),
      log: (params) => logs.push(params),
    });
    expect(step).toEqual(asked(handleOf(holder.router)));
    expect(progress).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    expect(logs).toEqual([]);
    expect(holder.logs).toEqual([
      'info Dropped a log message or progress of the upstream larger than 65536 characters on the gateway fleet bus.',
    ]);
  });

  it("has the holder drop a call its host cancelled on another replica, and no other replica's", async () => {
    const holder = await replica('gw1', async (request) => asked(request.handle));
    const other = await replica('gw3', async (request) => asked(request.handle));
    const sender = await replica('gw2');
    const handle = handleOf(holder.router);
    const toHolder = await overhear(holder.router);
    sender.router.cancel(holder.router.replica, handle, 'alice');
    sender.router.cancel(holder.router.replica, `${holder.router.replica}.${'g'.repeat(43)}`, undefined);
    await expect.poll(() => holder.cancels).toHaveLength(2);
    expect(holder.cancels).toEqual([
      [handle, 'alice'],
      [`${holder.router.replica}.${'g'.repeat(43)}`, undefined],
    ]);
    // A cancel is sealed too, and acted on once.
    expect(toHolder[0]).not.toContain('alice');
    await client().publish(channelOf(holder.router), toHolder[0]!);
    // One for a call another replica holds, published on the holder's channel, is not acted on.
    sender.router.cancel(holder.router.replica, handleOf(other.router), 'alice');
    await expect
      .poll(() => holder.logs)
      .toEqual(['warn Dropped a copy of a cancel already acted on (replayed) on the gateway fleet bus.']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(holder.cancels).toHaveLength(2);
    expect(other.cancels).toEqual([]);
  });

  it('keeps serving while the fleet rotates its keys, and drops what a retired key sealed', async () => {
    const [k1, k2] = [`k1:${secret(1)}`, `k2:${secret(2)}`];
    const serve = async (request: Resume) => asked(request.handle);
    // Mid-rotation: the new key first on one replica, still second on the other.
    const holder = await replica('gw1', serve, { keys: `${k2},${k1}` });
    const sender = await replica('gw2', undefined, { keys: `${k1},${k2}` });
    const handle = handleOf(holder.router);
    expect(await sender.router.forward(holder.router.replica, resumeOf(handle))).toEqual(asked(handle));
    // Rotated: the old key is gone, and a replica still sealing with it is not heard.
    const rotated = await replica('gw1', serve, { keys: k2 });
    const stale = await replica('gw2', undefined, { keys: k1, answerTimeoutMs: 200 });
    await expect(
      stale.router.forward(rotated.router.replica, resumeOf(handleOf(rotated.router), 100)),
    ).rejects.toThrow(/did not answer within/);
    expect(rotated.logs).toEqual([
      'warn Dropped a message sealed with a key this replica does not have (is fleet.stateKeys the same on every replica?) on the gateway fleet bus.',
    ]);
  });

  it('needs the key ring the fleet shares, and says so', () => {
    const before = process.env.PARLEY_STATE_KEYS;
    delete process.env.PARLEY_STATE_KEYS;
    try {
      expect(() => new RedisLiveCallRouter(client(), { name: 'gw1' })).toThrow(
        "RedisLiveCallRouter seals its messages with the key ring the fleet shares: pass { keys } (the replicas' fleet.stateKeys) or set PARLEY_STATE_KEYS, the same on every replica.",
      );
      process.env.PARLEY_STATE_KEYS = KEYS;
      routers.push(new RedisLiveCallRouter(client(), { name: 'gw1' }));
    } finally {
      if (before === undefined) delete process.env.PARLEY_STATE_KEYS;
      else process.env.PARLEY_STATE_KEYS = before;
    }
  });
});

describe('openGatewayFleet', () => {
  const keys = `k1:${Buffer.alloc(32, 9).toString('base64')}`;
  const config = (fleet: Record<string, string>) => ({
    upstreams: { files: { url: 'http://127.0.0.1:9/mcp' } },
    fleet,
  });

  it("opens a replica's shared parts on Redis, which createGateway needs for a fleet section", async () => {
    const fleetConfig = { redis: redis.url, replica: 'gw7', stateKeys: keys };
    expect(() => createGateway(config(fleetConfig))).toThrow(
      /fleet: a replica of a fleet needs its shared parts on Redis: const fleet = await openGatewayFleet\(config\.fleet\)/,
    );
    const fleet = await openGatewayFleet(fleetConfig);
    try {
      expect(fleet.options.router.replica).toMatch(/^gw7-[0-9a-f-]{36}$/);
      expect(fleet.options.server.questionPages).toMatchObject({ store: expect.any(Object) });
      expect(fleet.options.server.sessions?.router).toBeDefined();
      const gateway = createGateway(config(fleetConfig), fleet.options);
      await gateway.close();
    } finally {
      await fleet.close();
    }
  });

  it('refuses a key ring that cannot be used, naming the field and the fix', async () => {
    await expect(
      openGatewayFleet({ redis: redis.url, replica: 'gw7', stateKeys: 'k1:c2hvcnQ=' }),
    ).rejects.toThrow(
      /fleet\.stateKeys: Key "k1" has a secret shorter than 32 bytes .*openssl rand -base64 32/,
    );
  });

  it('says which Redis did not answer, never its password', async () => {
    const nobody = `redis://:hunter2@127.0.0.1:${await freePort()}`;
    const failure = await openGatewayFleet({ redis: nobody, replica: 'gw7', stateKeys: keys }).catch(
      (error: unknown) => error as Error,
    );
    expect(String(failure)).toMatch(
      /Redis at 127\.0\.0\.1:\d+ did not answer within 10 s; start it, or fix fleet\.redis in the configuration\./,
    );
    expect(String(failure)).not.toContain('hunter2');
  });
});
