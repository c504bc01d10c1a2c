// RedisLiveCallRouter against a real redis-server: replicas of one process each (their own ioredis
// clients), resumes passed to the replica a handle names, and everything that can go wrong on the way;
// and openGatewayFleet, which opens a replica's shared parts from a configuration's fleet section.
import { createGateway, type Resume, type Step } from '@parley/gateway';
import {
  openGatewayFleet,
  RedisLiveCallRouter,
  type RedisLiveCallRouterOptions,
} from '@parley/gateway/redis';
import { ToolError } from '@parley/server';
import { freePort, type RedisServer, startRedis } from '@parley/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

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

/** A replica's router, serving with `serve` (if given), its log lines kept. */
async function replica(
  name: string,
  serve?: (request: Resume) => Promise<Step>,
  options: RedisLiveCallRouterOptions = {},
) {
  const logs: string[] = [];
  const router = new RedisLiveCallRouter(client(), {
    name,
    log: (level, message) => logs.push(`${level} ${message}`),
    ...options,
  });
  routers.push(router);
  if (serve) router.serve(serve);
  await router.ready();
  return { router, logs };
}

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

  it('drops and logs bad, forged and misdirected messages, and goes on serving', async () => {
    const served: Resume[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holder = await replica('gw1', async (request) => {
      served.push(request);
      await held;
      return asked(request.handle);
    });
    const other = await replica('gw3', async (request) => asked(request.handle));
    const sender = await replica('gw2');
    const handle = handleOf(holder.router);
    const publisher = client();
    const toHolder = `parley:gateway:live:${holder.router.replica}`;
    const toSender = `parley:gateway:live:${sender.router.replica}`;
    const resume = (fields: Record<string, unknown>) =>
      JSON.stringify({
        t: 'resume',
        id: 'forged-1',
        from: sender.router.replica,
        until: Date.now() + 10_000,
        resume: { handle, owner: 'alice', round: 1, answers: null, holdMs: 1_000 },
        ...fields,
      });

    const waiting = sender.router.forward(holder.router.replica, resumeOf(handle));
    await expect.poll(() => served.length).toBe(1);
    // On the holder's channel: junk, and a resume for a call another replica holds.
    await publisher.publish(toHolder, 'not json at all \u001b[2J');
    await publisher.publish(
      toHolder,
      resume({ resume: { handle: handleOf(other.router), owner: 'alice', round: 1, holdMs: 1_000 } }),
    );
    await publisher.publish(toHolder, resume({ until: Date.now() - 1 }));
    // On the sender's channel: a reply from a replica the resume did not go to, and one nobody waits for.
    const spy = client().duplicate();
    clients.push(spy);
    await spy.subscribe(toHolder);
    const sent = new Promise<string>((resolve) => {
      spy.on('message', (_channel, text: string) => {
        const parsed = JSON.parse(text) as { id?: string; from?: string; resume?: { round?: number } };
        if (parsed.from === sender.router.replica && parsed.resume?.round === 9) resolve(parsed.id!);
      });
    });
    const second = sender.router.forward(holder.router.replica, { ...resumeOf(handle), round: 9 });
    const id = await sent;
    const forged = { kind: 'result', result: { content: [{ type: 'text', text: 'forged' }] } };
    await publisher.publish(
      toSender,
      JSON.stringify({ t: 'step', id, from: other.router.replica, step: forged }),
    );
    await publisher.publish(
      toSender,
      JSON.stringify({ t: 'step', id: 'nobody', from: holder.router.replica, step: forged }),
    );
    release();
    expect(await waiting).toEqual(asked(handle));
    expect(await second).toEqual(asked(handle)); // the forged reply to it was dropped
    expect(served.map((request) => request.round)).toEqual([1, 9]);

    // Logged once, then counted into the next line; never the message itself.
    expect(holder.logs).toEqual(['warn Dropped a message that is not JSON on the gateway fleet bus.']);
    expect(sender.logs).toEqual([
      'warn Dropped a reply from a replica the resume was not sent to on the gateway fleet bus.',
    ]);
    expect(holder.logs.join('\n')).not.toContain('\u001b');
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
