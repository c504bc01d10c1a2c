import { join } from 'node:path';
import { freePort, type Nginx, onFreePort, startNginx, startRedis } from '@parley/testing';
import { FaultWindows } from '../fault-windows.js';
import { newKey, ringText } from '../keys.js';
import { BalancerChannel } from '../lb/channel.js';
import { Random } from '../random.js';
import { OUTSIDE } from '../report.js';
import { RunRecord } from '../run-record.js';
import { ConcurrentLine } from './concurrent-line.js';
import { GatewayReplica } from './gateway-replica.js';
import { type GatewayReport, gatewayProblems, type PartReport } from './gateway-report.js';
import { countRound, emptyRoundCounts, type KillRecord, runLoad } from './load.js';
import { Sequencer } from './sequencer.js';
import { startTripsUpstream, type TripsUpstream } from './upstream.js';

export interface GatewayRunOptions {
  /** Flows of the sequenced part (at least; more run while the killed replica comes back). */
  readonly flows: number;
  /** Flows in progress at once in the sequenced part. */
  readonly active: number;
  /** Flows of the concurrent part (0 skips it). */
  readonly concurrentFlows: number;
  /** Flows in flight at once in the concurrent part. */
  readonly concurrentActive: number;
  readonly seed: number;
  /** Progress lines (the report is returned, not printed). */
  readonly log: (line: string) => void;
}

/** How long flows still in progress may take once the last one started before they count as lost. */
const LOST_AFTER_MS = 60_000;
/** Every how many answers the reply is thrown away as lost (the holder must answer the copy the same). */
const LOSE_REPLY_EVERY = 40;

/**
 * The gateway fleet run: three `parley gateway` replicas sharing Redis (a `fleet` section) behind a
 * real nginx (round-robin, no affinity), in front of a 2025-only upstream (the TypeScript SDK v1),
 * and 2026-07-28 hosts (Parley's client). First one request at a time, every answer reaching its
 * held call through another replica; then as many at once as the hosts send. In each part one
 * replica is killed (SIGKILL) with calls held on it and started again: the flows whose calls it held
 * must be told so by name; every other flow must complete with exactly its own data.
 */
export async function runGatewayFleet(options: GatewayRunOptions): Promise<GatewayReport> {
  const record = new RunRecord('parley-gateway-fleet-', options.log);
  const { logDir, timeline, note } = record;

  const redis = await startRedis();
  let upstream: TripsUpstream | undefined;
  let nginx: Nginx | undefined;
  const replicas: GatewayReplica[] = [];
  let keepLogs = true;
  try {
    upstream = await startTripsUpstream(join(logDir, 'upstream.log'));
    const lbPort = await freePort();
    const origin = `http://127.0.0.1:${lbPort}`;
    const shared = {
      config: {
        name: 'fleet-gateway',
        upstreams: { trips: { url: upstream.url, title: 'Trips desk' } },
        pages: { publicUrl: origin },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: references each replica reads from its environment
        fleet: { redis: '${REDIS_URL}', replica: '${GATEWAY_REPLICA}', stateKeys: '${PARLEY_STATE_KEYS}' },
      },
      env: { REDIS_URL: redis.url, PARLEY_STATE_KEYS: ringText([newKey('gw-k1')]) },
      logDir,
    };
    for (const name of ['gw1', 'gw2', 'gw3']) {
      const replica = await onFreePort(async (port) => {
        const made = new GatewayReplica(name, port, shared);
        await made.start();
        return made;
      });
      replicas.push(replica);
    }
    nginx = await startNginx({
      port: lbPort,
      upstreamPorts: replicas.map((replica) => replica.port),
      streamRequestBodies: true,
      maxFails: 1,
      failTimeoutSeconds: 2,
    });
    const upstreamLine = /^trips: \d{4}-\d\d-\d\d.*$/m.exec(replicas[0]!.stderr())?.[0] ?? 'trips: ?';
    note(
      `3 gateway replicas (${replicas.map((r) => `${r.name} ${r.address}`).join(', ')}) behind nginx at ${origin}, Redis at ${redis.url}; upstream ${upstream.url} (${upstreamLine})`,
    );
    const endpoint = `${origin}/mcp`;
    const random = new Random(options.seed);
    const windows = new FaultWindows();
    const byAddress = (address: string) => replicas.find((replica) => replica.address === address)!;

    /**
     * Kills `victim` (its held flows read at that moment); `back` resolves once it was started again
     * and served a request.
     */
    const killReplica = async (
      victim: GatewayReplica,
      holding: (address: string) => number[],
      how: { midRequest: boolean; cut?: string },
    ): Promise<{ record: KillRecord; back: Promise<void> }> => {
      const window = windows.open('kill', victim.address);
      const heldAtKill = holding(victim.address).length;
      const killedAt = Date.now();
      await victim.kill();
      note(
        `${victim.name} killed (SIGKILL)${how.midRequest ? ` with a request inside it (${how.cut})` : ''}, holding the calls of ${heldAtKill} flows in progress`,
      );
      const record = {
        victim: victim.name,
        address: victim.address,
        heldAtKill,
        killedAt,
        restartedAt: 0,
        ...how,
      };
      const back = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await victim.start();
        // The new process answers nothing before it printed its URL: a first round the victim's
        // address answered before then was answered by the process that died.
        record.restartedAt = Date.now();
        windows.restarted(window);
        note(`${victim.name} restarted (a new id in the fleet: the calls it held are gone for good)`);
        const deadline = Date.now() + 20_000;
        while (window.servedAgainAt === undefined && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 25));
        note(
          window.servedAgainAt === undefined
            ? `${victim.name} did not serve again within 20 s`
            : `${victim.name} serving again`,
        );
      })();
      return { record, back };
    };
    /** A replica holding calls of at least 6 flows in progress (any, after 5 s). */
    const wanted = (holding: (address: string) => number[]) => {
      const armedAt = Date.now();
      return (address: string) => holding(address).length >= (Date.now() - armedAt < 5_000 ? 6 : 1);
    };
    const parts: PartReport[] = [];

    // Part 1: one request at a time, every answer through another replica than its call's holder.
    note(
      `one at a time: ${options.flows} flows, ${options.active} in progress, every answer through another replica`,
    );
    const channel = new BalancerChannel(
      origin,
      replicas.map((replica) => replica.address),
    );
    const sequencedRounds = emptyRoundCounts();
    const sequencer = new Sequencer(channel, {
      loseReplyEvery: LOSE_REPLY_EVERY,
      onReply: (event) => {
        windows.served(event.reply.replica);
        countRound(sequencedRounds, event, windows.current() ?? OUTSIDE);
      },
    });
    const sending = sequencer.run();
    const sequenced = await runLoad({
      line: sequencer,
      endpoint,
      flows: options.flows,
      active: options.active,
      firstId: 0,
      random,
      killAt: 0.35,
      lostAfterMs: LOST_AFTER_MS,
      kill: async (holding) => {
        let killing: Promise<{ record: KillRecord; back: Promise<void> }> | undefined;
        const inside = sequencer.killDuringRequest(wanted(holding), async (cut, address) => {
          await new Promise((resolve) => setTimeout(resolve, 40)); // the request reaches the replica
          killing = killReplica(byAddress(address), holding, { midRequest: true, cut });
          await killing;
        });
        await Promise.race([inside, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        if (killing === undefined) {
          sequencer.cancelKill();
          const busiest = [...replicas].sort(
            (a, b) => holding(b.address).length - holding(a.address).length,
          )[0]!;
          killing = killReplica(busiest, holding, { midRequest: false });
        }
        const killed = await killing;
        await killed.back;
        return killed.record;
      },
    });
    sequencer.stop();
    if (sequenced.ended) await sending;
    parts.push({
      label: 'one at a time, every answer through another replica than its call',
      sequenced: true,
      flowsAsked: options.flows,
      active: options.active,
      results: sequenced.results,
      rounds: sequencedRounds,
      line: { ...sequencer.stats },
      kill: sequenced.kill,
      durationMs: sequenced.durationMs,
    });
    note(`one at a time finished: ${sequenced.results.length} flows`);

    // Part 2: as many at once as the hosts send, wherever nginx puts each request.
    if (options.concurrentFlows > 0) {
      note(`all at once: ${options.concurrentFlows} flows, ${options.concurrentActive} in flight, no order`);
      const concurrentRounds = emptyRoundCounts();
      const line = new ConcurrentLine(origin, {
        loseReplyEvery: LOSE_REPLY_EVERY,
        onReply: (event) => {
          windows.served(event.reply.replica);
          countRound(concurrentRounds, event, windows.current() ?? OUTSIDE);
        },
      });
      const concurrent = await runLoad({
        line,
        endpoint,
        flows: options.concurrentFlows,
        active: options.concurrentActive,
        firstId: 100_000,
        random,
        killAt: 0.4,
        lostAfterMs: LOST_AFTER_MS,
        kill: async (holding) => {
          const wants = wanted(holding);
          const deadline = Date.now() + 30_000;
          let victim: GatewayReplica | undefined;
          while (victim === undefined && Date.now() < deadline) {
            victim = replicas.find((replica) => wants(replica.address));
            if (victim === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
          }
          const killed = await killReplica(victim ?? replicas[0]!, holding, { midRequest: false });
          await killed.back;
          return killed.record;
        },
      });
      line.close();
      parts.push({
        label: 'all at once, no order',
        sequenced: false,
        flowsAsked: options.concurrentFlows,
        active: options.concurrentActive,
        results: concurrent.results,
        rounds: concurrentRounds,
        line: { ...line.stats },
        kill: concurrent.kill,
        durationMs: concurrent.durationMs,
      });
      note(`all at once finished: ${concurrent.results.length} flows`);
    }

    const report: GatewayReport = {
      durationMs: record.elapsedMs,
      seed: options.seed,
      upstreamLine,
      replicas: replicas.map((replica) => ({
        name: replica.name,
        address: replica.address,
        starts: replica.starts,
      })),
      channel: channel.stats(),
      parts,
      windows: windows.all,
      timeline,
      logDir,
    };
    keepLogs = gatewayProblems(report).length > 0;
    return report;
  } finally {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await nginx?.stop();
    await upstream?.stop();
    await redis.stop();
    record.finish(keepLogs);
  }
}
