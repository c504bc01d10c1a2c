import { Agent } from 'node:http';
import { FlightFlow } from '../flows/flight-flow.js';
import { ReturnFlow } from '../flows/return-flow.js';
import { send } from '../lb/send.js';
import { toolCall } from '../mcp/modern-call.js';
import { outcomeOf, unclearReason } from '../mcp/outcome.js';
import { Random } from '../random.js';
import type { TokenUse } from '../token-use.js';
import { type Tokens, USERS, type UserName } from '../users.js';
import type { Era, EraResult } from './era-result.js';
import { type HandshakeDeps, HandshakeFlightFlow, HandshakeReturnFlow } from './handshake-flow.js';
import type { SessionRouting } from './handshake-session.js';
import { runModernFlow } from './modern-runner.js';

/** A fault the run injects once a share of its flows finished. */
export interface MixedFault {
  /** Share of the flows finished before it starts (0 to 1). */
  readonly at: number;
  readonly name: string;
  run(): Promise<void>;
}

export interface MixedOptions {
  /** The balancer's origin. */
  readonly origin: string;
  /** Flows per era to run at least (more run while faults are still under way). */
  readonly perEra: number;
  /** Flows in flight at once, both eras together (half each). */
  readonly active: number;
  readonly seed: number;
  /** The first flow id (ids, and so each flight's day, are unique across the whole fleet run). */
  readonly firstId: number;
  readonly tokens: () => Tokens;
  /** Requests in flight by token (the faults wait for them before a replica revokes its tokens). */
  readonly tokenUse: TokenUse;
  readonly faults: readonly MixedFault[];
  /** A flow not ended this long after the load finished counts as lost. */
  readonly graceMs: number;
  readonly note: (text: string) => void;
}

export interface MixedRun {
  readonly results: readonly EraResult[];
  /** How 2025-era requests met their sessions' replicas. */
  readonly routing: SessionRouting;
  /** Most flows in flight at once. */
  readonly peakInFlight: number;
  readonly durationMs: number;
}

/**
 * Both eras at once: half the flows in flight are 2025-era sessions of the official SDK client,
 * half 2026-07-28 request rounds, all through the balancer with no affinity; the faults run while
 * they do. Every flow is accounted for: completed, failed, wrong, or lost (it never ended).
 */
export async function runMixed(options: MixedOptions): Promise<MixedRun> {
  const started = Date.now();
  const agent = new Agent({ keepAlive: true, maxSockets: options.active * 2 });
  const random = new Random(options.seed);
  const routing: SessionRouting = {
    sessionRequests: 0,
    awayFromOwner: 0,
    awayServed: 0,
    openedOn: new Map(),
  };
  const results: EraResult[] = [];
  const running = new Map<
    number,
    { era: Era; kind: EraResult['kind']; user: UserName; flow: EraResult['flow'] }
  >();
  let nextId = options.firstId;
  let peakInFlight = 0;
  let faultsDone = options.faults.length === 0;
  const created: Record<Era, number> = { '2025': 0, '2026-07-28': 0 };

  const listBookings = async (user: UserName): Promise<Record<string, unknown>> => {
    for (let attempt = 1; ; attempt++) {
      const reply = await send(
        options.origin,
        toolCall({ tool: 'list_bookings', token: options.tokens()[user], clientName: 'fleet-check' }),
        undefined,
        agent,
      );
      const outcome = outcomeOf(reply);
      if (unclearReason(reply) === undefined && outcome.kind === 'complete' && !outcome.isError)
        return outcome.data;
      if (attempt === 5) throw new Error(`list_bookings failed: ${JSON.stringify(outcome)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };
  const handshakeDeps: HandshakeDeps = {
    origin: options.origin,
    tokens: options.tokens,
    routing,
    tokenUse: options.tokenUse,
    listBookings,
  };
  const modernDeps = { tokens: options.tokens };

  const runOne = async (era: Era): Promise<EraResult> => {
    const id = nextId++;
    const n = created[era]++;
    const kind = n % 2 === 0 ? 'form' : 'three-round';
    const user = USERS[Math.floor(n / 2) % USERS.length]!.name;
    let result: Promise<EraResult>;
    let flow: EraResult['flow'];
    if (era === '2025') {
      const handshake =
        kind === 'form'
          ? new HandshakeReturnFlow(id, user, handshakeDeps, random)
          : new HandshakeFlightFlow(id, user, handshakeDeps, random, id);
      flow = handshake;
      result = handshake.run();
    } else {
      const modern =
        kind === 'form'
          ? new ReturnFlow(id, user, modernDeps, random)
          : new FlightFlow(id, user, modernDeps, random);
      flow = modern;
      result = runModernFlow(modern, options.origin, agent, options.tokenUse);
    }
    running.set(id, { era, kind, user, flow });
    peakInFlight = Math.max(peakInFlight, running.size);
    try {
      return await result;
    } catch (error) {
      return {
        era,
        id,
        kind,
        user,
        status: 'failed',
        retries: 0,
        recovered: false,
        flow,
        reason: String(error),
      };
    } finally {
      running.delete(id);
    }
  };

  const worker = async (era: Era) => {
    while (created[era] < options.perEra || !faultsDone) results.push(await runOne(era));
  };
  const progress = () => results.length / (options.perEra * 2);
  const faults = (async () => {
    for (const fault of options.faults) {
      while (progress() < fault.at) await new Promise((resolve) => setTimeout(resolve, 50));
      options.note(`${fault.name} (${running.size} flows in flight)`);
      await fault.run();
    }
  })().finally(() => {
    faultsDone = true;
  });

  const half = Math.max(1, Math.floor(options.active / 2));
  const workers = Promise.all([
    ...Array.from({ length: half }, () => worker('2025')),
    ...Array.from({ length: options.active - half }, () => worker('2026-07-28')),
  ]);
  let faultError: unknown;
  await faults.catch((error: unknown) => {
    faultError = error;
  });
  // Every flow ends on its own; one that has not within the grace period is lost (it hung).
  const timedOut = Symbol('timed out');
  const ended = await Promise.race([
    workers,
    new Promise<typeof timedOut>((resolve) => setTimeout(() => resolve(timedOut), options.graceMs).unref()),
  ]);
  if (ended === timedOut) {
    for (const [id, flow] of running) {
      results.push({ ...flow, id, status: 'lost', retries: 0, recovered: false, reason: 'it never ended' });
    }
  }
  agent.destroy();
  if (faultError) throw faultError;
  return { results, routing, peakInFlight, durationMs: Date.now() - started };
}
