// ctx.once on 2026-07-28 when a client sends the same round twice (issue 14, finding 6): with a store,
// the side effect runs once, on one replica or across two; without one, the README says what holds.
import { startRedis } from '@parley/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRing, newSecret } from './wire/fixture-env.js';
import { callTool, type ModernWire } from './wire/modern-envelope.js';
import { accept, countersOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';
import { startModernWire } from './wire/start-modern.js';

const ORDER = { order: 'O-1' };
const labelOf = (text: string) => /label (LBL-\d+)/.exec(text)?.[1];

/** Round 1, then round 2 (where ctx.once runs) sent to each wire in `resend`, in parallel. */
async function resendRound2(first: ModernWire, resend: readonly ModernWire[]) {
  const round1 = inputRequiredOf(await callTool(first, 'book_return', ORDER));
  const round2 = { requestState: round1.requestState, inputResponses: { boxes: accept(1) } };
  const replies = await Promise.all(resend.map((wire) => callTool(wire, 'book_return', ORDER, round2)));
  // Each copy goes on to the end: the label each one books under.
  return Promise.all(
    replies.map(async (reply, index) => {
      const pickup = inputRequiredOf(reply);
      const done = toolResultOf(
        await callTool(resend[index]!, 'book_return', ORDER, {
          requestState: pickup.requestState,
          inputResponses: { date: accept('2026-09-01'), slot: accept('am') },
        }),
      );
      return labelOf(done.text);
    }),
  );
}

describe('ctx.once when a round is sent twice', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const wires: ModernWire[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(wires.map((wire) => wire.close()));
    await redis?.stop();
  });
  const start = async (env: Record<string, string>) => {
    const wire = await startModernWire('http', env);
    wires.push(wire);
    return wire;
  };

  it('runs once with a memory store, and both copies carry the one label', async () => {
    const wire = await start({ PARLEY_FIXTURE_ONCE: 'memory' });
    const before = await countersOf(wire);
    const labels = await resendRound2(wire, [wire, wire]);
    const after = await countersOf(wire);
    expect(after.labels - before.labels).toBe(1);
    expect(labels[0]).toBeDefined();
    expect(labels).toEqual([labels[0], labels[0]]);
  });

  it('runs once across two replicas sharing a Redis store', async () => {
    const keys = keyRing(['k1', newSecret()]);
    const env = { PARLEY_STATE_KEYS: keys, PARLEY_FIXTURE_ONCE: redis.url };
    const [a, b] = await Promise.all([start(env), start(env)]);
    const before = [await countersOf(a), await countersOf(b)];
    const labels = await resendRound2(a, [a, b]);
    const after = [await countersOf(a), await countersOf(b)];
    const ran = after[0]!.labels - before[0]!.labels + (after[1]!.labels - before[1]!.labels);
    expect(ran).toBe(1);
    expect(labels[0]).toBeDefined();
    expect(labels).toEqual([labels[0], labels[0]]);
  });

  it('without a store, runs once per round as sent: a copy runs it again, under the same idempotency key', async () => {
    const wire = await start({});
    const before = await countersOf(wire);
    await resendRound2(wire, [wire, wire]);
    const after = await countersOf(wire);
    expect(after.labels - before.labels).toBe(2);
  });
});
