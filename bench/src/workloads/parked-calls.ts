/**
 * Workload (h), memory: what a parked call costs. A 2026-07-28 host calls a 2025 upstream through
 * the gateway; the upstream asks, the host gets an `InputRequiredResult`, and the gateway holds the
 * upstream's call open (on a 2025 session of its own) until the host comes back with the answer.
 * Read after a full GC in the gateway and in the upstream, beyond warm-up calls parked first, and
 * against a pending 2025-era question on a Parley server over HTTP sessions counted the same way
 * ((f) (iv)), measured in the same run.
 */
import { IdSource, parseReply, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import { openingRequest, REQUEST_HEADERS } from '../load/messages.js';
import { SideChannelClient, type StatsSource } from '../servers/side-channel-client.js';
import type { ServerProcess } from '../servers/spawn.js';
import { keyOf } from '../survey.js';
import { answeredSession, reading, silentSession, waitUntil } from './memory.js';
import type { PendingCost } from './pending-cost.js';

/** What a parked call costs, and the pending question it is read against. */
export interface ParkedCalls {
  /** Heap per parked call in the gateway process: the held upstream call and its 2025 session. */
  readonly gateway: PendingCost;
  /** The same calls in the upstream process: each a question pending on a session of its own. */
  readonly upstream: PendingCost;
  /** A pending 2025-era question on Parley over HTTP sessions, as (f) (iv) counts it. */
  readonly pendingQuestion: PendingCost;
  /** The SDK client alone, as the gateway connects it; absent in results from before it was measured. */
  readonly clientFloor?: ClientFloor;
  /** The same without the standalone GET stream each session opens; absent in older results. */
  readonly clientFloorNoGet?: ClientFloor;
}

/** The official SDK client alone under a parked call (servers/client-floor.ts). */
export interface ClientFloor {
  /** An idle 2025 session, connected as the gateway connects one. */
  readonly session: PendingCost;
  /** A session with one call waiting on its question: a parked call without the gateway's own part. */
  readonly sessionWithCall: PendingCost;
}

/** Whole flows run through the gateway before the first reading, so the code on their path is compiled. */
const WARMUP_FLOWS = 20;
/** Calls opened at once while parking. */
const WIDTH = 32;

/**
 * Parks `warmup`, reads both processes, parks `held` more, reads again: the heap difference per
 * call, in each. The gateway must speak a 2025 revision to the upstream, and both be fresh (stop
 * them afterwards: the calls stay parked). Keep `warmup + held` under the gateway's cap on
 * anonymous parked calls (1,000).
 */
export async function measureParkedCalls(
  gateway: ServerProcess,
  upstream: ServerProcess,
  held: number,
  warmup: number,
): Promise<Pick<ParkedCalls, 'gateway' | 'upstream'>> {
  const poster = new KeepAlivePoster(gateway.url, WIDTH);
  const ids = new IdSource();
  let parked = 0;
  const open = async () => {
    const reply = parseReply((await poster.post(openingRequest(ids.next(), 1), REQUEST_HEADERS)).body);
    const result = reply?.result;
    if (result?.resultType !== 'input_required' || Object.keys(result.inputRequests ?? {})[0] !== keyOf(0))
      throw new Error(`The gateway did not park a call: ${JSON.stringify(reply).slice(0, 300)}`);
  };
  const park = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await open();
      }
    };
    await Promise.all(Array.from({ length: Math.min(WIDTH, count) }, worker));
    parked += count;
    // The upstream counts its pending questions, the gateway its held calls: both must hold every one.
    for (const server of [gateway, upstream]) {
      const took = await waitUntil(server, (running) => running >= parked, 30_000);
      if (took === undefined) throw new Error(`${server.kind}: fewer than ${parked} calls held after 30 s.`);
    }
    return Promise.all([readAfterGc(gateway), readAfterGc(upstream)]);
  };
  try {
    for (let flow = 0; flow < WARMUP_FLOWS; flow++) await runFlow(poster, 1, ids);
    const [gatewayBefore, upstreamBefore] = await park(warmup);
    const [gatewayAfter, upstreamAfter] = await park(held);
    return {
      gateway: costOf(held, gatewayBefore, gatewayAfter),
      upstream: costOf(held, upstreamBefore, upstreamAfter),
    };
  } finally {
    poster.close();
  }
}

async function readAfterGc(server: StatsSource) {
  return reading(await server.stats({ gc: true }));
}

function costOf(held: number, before: PendingCost['before'], after: PendingCost['after']): PendingCost {
  return { held, before, after, heapKbEach: ((after.heapMb - before.heapMb) * 1024) / held };
}

/**
 * What the SDK client alone holds for a parked call, in a `client-floor` process: `warmup` sessions
 * with a call each first, a reading, `held` idle sessions more, a reading, `held` sessions with a
 * call each more, a reading. Its upstream takes `warmup + 2 × held` sessions.
 */
export async function measureClientFloor(
  floor: ServerProcess,
  held: number,
  warmup: number,
): Promise<ClientFloor> {
  const side = new SideChannelClient(floor.url, floor.kind);
  const hold = async (count: number, calls: boolean) => {
    await side.get(`/hold?count=${count}&calls=${calls ? 1 : 0}`);
    return readAfterGc(floor);
  };
  const first = await hold(warmup, true);
  const idle = await hold(held, false);
  const withCalls = await hold(held, true);
  return { session: costOf(held, first, idle), sessionWithCall: costOf(held, idle, withCalls) };
}

/**
 * Heap per pending 2025-era question over HTTP sessions, counted as (f) (iv) counts it (`warmup`
 * questions asked and answered first, then `sessions × perSession` left unanswered), without (f)'s
 * timeouts and disconnects: the reference a parked call is read against. The sessions end
 * afterwards.
 */
export async function measurePendingHeap(
  server: ServerProcess,
  sessions: number,
  perSession: number,
  warmup: number,
): Promise<PendingCost> {
  const questions = sessions * perSession;
  await answeredSession(server.url, warmup);
  const before = await readAfterGc(server);
  const held = await Promise.all(
    Array.from({ length: sessions }, () => silentSession(server.url, perSession, 600_000)),
  );
  try {
    const took = await waitUntil(server, (running) => running >= questions, 120_000);
    if (took === undefined)
      throw new Error(`${server.kind}: fewer than ${questions} questions pending after 120 s.`);
    return costOf(questions, before, await readAfterGc(server));
  } finally {
    await Promise.all(held.map((session) => session.transport.terminateSession().catch(() => {})));
    await Promise.all(held.map((session) => session.client.close()));
  }
}
