// Fair limits across a fleet (issue 26): failed sign-ins were counted per process, so a fleet of N
// replicas allowed N times the guesses. With REDIS_URL set, replicas count them together: five wrong
// passwords for alice spread over two replicas lock her name out on both. Two real Brightgrid
// processes on one database and one real redis-server; without Redis, the same five leave each
// replica counting only its own.
import { randomBytes } from 'node:crypto';
import { startRedis } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrightgridProcess, freshDataDir, startBrightgridProcess } from './processes.js';

const FLEET_KEYS = `k1:${randomBytes(32).toString('base64')}`;
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** One sign-in attempt on a replica's store page: the status, and the message shown. */
async function signIn(replica: BrightgridProcess, username: string, password: string) {
  const form = await fetch(`${replica.origin}/signin`);
  const csrfCookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const response = await fetch(`${replica.origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: replica.origin,
      cookie: csrfCookie,
    },
    body: new URLSearchParams({ csrf, return_to: '/', username, password }).toString(),
  });
  const page = await response.text();
  return { status: response.status, alert: /role="alert">([^<]+)</.exec(page)?.[1] };
}

describe.each([
  ['sharing Redis', true],
  ['each on its own', false],
])('two replicas %s', (_name, shared) => {
  let replicas: BrightgridProcess[] = [];
  beforeAll(async () => {
    const dataDir = freshDataDir();
    const env = (name: string): Record<string, string> => ({
      BRIGHTGRID_REPLICA: name,
      // Replicas sharing Redis share a key ring too: they seal what they pass each other with it.
      ...(shared && { REDIS_URL: redis.url, PARLEY_STATE_KEYS: FLEET_KEYS }),
    });
    // One after the other: the first creates and seeds the shared database.
    replicas = [await startBrightgridProcess(dataDir, env('r1'))];
    replicas.push(await startBrightgridProcess(dataDir, env('r2')));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.process.stop()));
  });

  it(shared ? 'count failed sign-ins together' : 'count only their own failed sign-ins', async () => {
    // Five wrong passwords for alice (the limit per name), alternating between the replicas.
    const wrong = [];
    for (let attempt = 0; attempt < 5; attempt++)
      wrong.push((await signIn(replicas[attempt % 2]!, 'alice', 'not-her-password')).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401]);
    const next = await Promise.all(replicas.map((replica) => signIn(replica, 'alice', 'wonderland')));
    if (shared) {
      // Her name is locked out everywhere, even with the right password, until the window ends.
      for (const outcome of next) {
        expect(outcome.status).toBe(429);
        expect(outcome.alert).toMatch(/^Too many failed sign-ins\. Try again in \d+ seconds\.$/);
      }
      // Bob's name is his own.
      expect((await signIn(replicas[1]!, 'bob', 'bricklayer')).status).toBe(303);
    } else {
      // Three failures on one, two on the other: neither reached five, so both let her in.
      expect(next.map((outcome) => outcome.status)).toEqual([303, 303]);
    }
  });
});
