import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type Nginx, onFreePort, startNginx, startRedis } from '@parley/testing';
import { type FaultWindow, FaultWindows } from '../fault-windows.js';
import { newKey, ringText } from '../keys.js';
import { BalancerChannel } from '../lb/channel.js';
import { Random } from '../random.js';
import { OUTSIDE } from '../report.js';
import { GatewayReplica } from './gateway-replica.js';
import { type GatewayReport, gatewayProblems, type KillRecord } from './gateway-report.js';
import { Sequencer } from './sequencer.js';
import { TripFlow, type TripResult } from './trip-flow.js';
import { startTripsUpstream, type TripsUpstream } from './upstream.js';

export interface GatewayRunOptions {
  /** Flows to run at least (more run while the killed replica is coming back). */
  readonly flows: number;
  /** Flows in progress at once. */
  readonly active: number;
  readonly seed: number;
  /** Progress lines (the report is returned, not printed). */
  readonly log: (line: string) => void;
}

/** How long flows still in progress may take once the last one started before they count as lost. */
const LOST_AFTER_MS = 60_000;

/**
 * The gateway fleet run: three `parley gateway` replicas sharing Redis (a `fleet` section) behind a
 * real nginx (round-robin, no affinity), in front of a 2025-only upstream (the TypeScript SDK v1),
 * and 2026-07-28 hosts (Parley's client) whose every answer reaches its held call through another
 * replica. One replica is killed (SIGKILL) with calls held on it and a request inside it, and
 * started again: the flows whose calls it held must be told so by name; every other flow must
 * complete with exactly its own data.
 */
export async function runGatewayFleet(options: GatewayRunOptions): Promise<GatewayReport> {
  const started = Date.now();
  const at = () => Math.round((Date.now() - started) / 100) / 10;
  const work = mkdtempSync(join(tmpdir(), 'parley-gateway-fleet-'));
  const logDir = join(work, 'logs');
  mkdirSync(logDir);
  const timeline: { at: number; text: string }[] = [];
  const note = (text: string) => {
    timeline.push({ at: at(), text });
    options.log(`[${at().toFixed(1)} s] ${text}`);
  };

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

    const channel = new BalancerChannel(
      origin,
      replicas.map((replica) => replica.address),
    );
    const windows = new FaultWindows();
    const rounds = { begun: 0, answered: 0, passedOn: 0, onHolder: new Map<string, number>() };
    const sequencer = new Sequencer(channel, {
      loseReplyEvery: 40,
      onReply: (event) => {
        windows.served(event.reply.replica);
        const replica = event.reply.replica;
        if (event.unclear !== undefined || replica === undefined) return;
        if (event.kind === 'begin') rounds.begun++;
        if (event.kind !== 'round') return;
        rounds.answered++;
        if (replica !== event.holder) rounds.passedOn++;
        else {
          const where = windows.current() ?? OUTSIDE;
          rounds.onHolder.set(where, (rounds.onHolder.get(where) ?? 0) + 1);
        }
      },
    });
    const sending = sequencer.run();

    const random = new Random(options.seed);
    const results: TripResult[] = [];
    const inProgress = new Set<TripFlow>();
    let created = 0;
    let faultsDone = false;
    let stopping = false;
    const endpoint = `${origin}/mcp`;
    const worker = async () => {
      while (!stopping && (created < options.flows || !faultsDone)) {
        const flow = new TripFlow(created++, random);
        inProgress.add(flow);
        const result = await flow.run(endpoint, sequencer.fetchFor(flow));
        if (!inProgress.delete(flow)) continue; // counted as lost already
        results.push(result);
      }
    };
    const workers = Promise.all(Array.from({ length: options.active }, worker));

    let kill: KillRecord | undefined;
    const faults = (async () => {
      while (results.length < options.flows * 0.35) await new Promise((resolve) => setTimeout(resolve, 25));
      // A replica holding calls of flows in progress, killed while a request is inside it: at first
      // only one holding at least 6 calls, after 5 s one holding any.
      const holding = (address: string) =>
        [...inProgress].filter((flow) => flow.holder === address).map((flow) => flow.id);
      const armedAt = Date.now();
      const wants = (address: string) => holding(address).length >= (Date.now() - armedAt < 5_000 ? 6 : 1);
      let victim: GatewayReplica | undefined;
      let window: FaultWindow | undefined;
      let midRequest = false;
      const die = async (chosen: GatewayReplica, cut?: string) => {
        victim = chosen;
        window = windows.open('kill', chosen.address);
        kill = {
          victim: chosen.name,
          held: holding(chosen.address),
          midRequest,
          ...(cut !== undefined && { cut }),
        };
        await chosen.kill();
      };
      const killed = sequencer.killDuringRequest(wants, async (cut, address) => {
        await new Promise((resolve) => setTimeout(resolve, 40)); // the request reaches the replica
        midRequest = true;
        await die(replicas.find((replica) => replica.address === address)!, cut);
      });
      await Promise.race([killed, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      if (victim === undefined) {
        sequencer.cancelKill();
        await die([...replicas].sort((a, b) => holding(b.address).length - holding(a.address).length)[0]!);
      }
      const dead = victim!;
      const deadWindow = window!;
      note(
        `${dead.name} killed (SIGKILL)${midRequest ? ` with a request inside it (${kill!.cut})` : ''}, holding the calls of ${kill!.held.length} flows in progress`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await dead.start();
      windows.restarted(deadWindow);
      note(`${dead.name} restarted (a new id in the fleet: the calls it held are gone for good)`);
      const deadline = Date.now() + 20_000;
      while (deadWindow.servedAgainAt === undefined && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 25));
      note(
        deadWindow.servedAgainAt === undefined
          ? `${dead.name} did not serve again within 20 s`
          : `${dead.name} serving again`,
      );
      faultsDone = true;
    })();
    const faultError = await faults.then(
      () => undefined,
      (error: unknown) => {
        faultsDone = true;
        return error;
      },
    );
    if (faultError) throw faultError;

    // Every flow has started once `workers` has nothing more to start; those not ended in time are lost.
    while (created < options.flows) await new Promise((resolve) => setTimeout(resolve, 25));
    const ended = await Promise.race([
      workers.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), LOST_AFTER_MS)),
    ]);
    stopping = true;
    if (!ended) {
      for (const flow of inProgress)
        results.push({
          id: flow.id,
          marker: flow.marker,
          status: 'lost',
          reason: `still in progress ${LOST_AFTER_MS / 1000} s after the last flow started`,
          at: { step: flow.step, replica: flow.holder },
          resent: flow.resent,
          answered: 0,
        });
      inProgress.clear();
    }
    sequencer.stop();
    if (ended) await sending;
    note(`load finished: ${results.length} flows`);

    const report: GatewayReport = {
      durationMs: Date.now() - started,
      seed: options.seed,
      flowsAsked: options.flows,
      active: options.active,
      results: results.sort((a, b) => a.id - b.id),
      upstreamLine,
      replicas: replicas.map((replica) => ({
        name: replica.name,
        address: replica.address,
        starts: replica.starts,
      })),
      rounds,
      channel: channel.stats(),
      sequencer: sequencer.stats,
      windows: windows.all,
      timeline,
      kill,
      logDir,
    };
    keepLogs = gatewayProblems(report).length > 0;
    return report;
  } finally {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await nginx?.stop();
    await upstream?.stop();
    await redis.stop();
    if (keepLogs) options.log(`Logs kept in ${logDir}`);
    else rmSync(work, { recursive: true, force: true });
  }
}
