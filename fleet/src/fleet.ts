import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type Nginx, startNginx, startRedis } from '@parley/testing';
import { auditBookings } from './audit.js';
import { Driver, type ReplyEvent } from './driver.js';
import { type FaultWindow, FaultWindows } from './fault-windows.js';
import { Browser, hiddenField } from './flows/browser.js';
import { FlightFlow, type Replayable } from './flows/flight-flow.js';
import { KeyUseCounter } from './key-use.js';
import { newKey, type RingKey, ringText, sealingKeyOf } from './keys.js';
import { BalancerChannel } from './lb/channel.js';
import { toolCall, toolsList } from './mcp/modern-call.js';
import { outcomeOf, unclearReason } from './mcp/outcome.js';
import type { EraResult } from './mixed/era-result.js';
import type { MixedReport } from './mixed/mixed-report.js';
import { type MixedFault, runMixed } from './mixed/mixed-run.js';
import { emptyProbeCounts, probeState } from './probes.js';
import { type FleetReport, OUTSIDE, problemsOf, type ReplayCheck } from './report.js';
import { RunRecord } from './run-record.js';
import { Replica } from './services/replica.js';
import { TokenUse } from './token-use.js';
import { type Tokens, USERS, type UserName } from './users.js';

export interface FleetOptions {
  /** Flows to run at least in the one-at-a-time part. */
  readonly flows: number;
  /** Flows in progress at once in the one-at-a-time part. */
  readonly active: number;
  /** Flows per era in the concurrent part (both eras at once, no affinity). */
  readonly mixedFlows: number;
  /** Flows in flight at once in the concurrent part. */
  readonly mixedActive: number;
  /** Flows per era in the sticky-routing part (0 skips it). */
  readonly stickyFlows: number;
  readonly seed: number;
  /** Progress lines (the report is returned, not printed). */
  readonly log: (line: string) => void;
}

/** Every how many flow replies a cross-user and a cross-tool probe go out. */
const PROBE_EVERY = 150;
/** Old-key and new-key states kept to replay at the end. */
const KEEP_OLD_STATES = 12;
const KEEP_NEW_STATES = 6;

/**
 * The fleet test: three Brightgrid replicas behind a real nginx (round-robin, no affinity), sharing
 * a key ring from configuration, a Redis flow store and one SQLite database; a load driver runs the
 * flows while one replica is killed and restarted and the key ring rotates replica by replica.
 */
export async function runFleet(options: FleetOptions): Promise<FleetReport> {
  const record = new RunRecord('parley-fleet-', options.log);
  const { logDir, timeline, note } = record;
  const dataDir = join(record.work, 'data');
  mkdirSync(dataDir);

  const redis = await startRedis();
  let nginx: Nginx | undefined;
  const replicas: Replica[] = [];
  let keepLogs = true;
  try {
    const lbPort = await freePort();
    const publicUrl = `http://127.0.0.1:${lbPort}`;
    for (const name of ['r1', 'r2', 'r3']) {
      replicas.push(new Replica(name, await freePort(), { dataDir, publicUrl, redisUrl: redis.url, logDir }));
    }
    const oldKey = newKey('k-2026-10');
    const newerKey = newKey('k-2026-11');
    // One after the other: the first creates and seeds the shared database.
    for (const replica of replicas) await replica.start(ringText([oldKey]));
    nginx = await startNginx({
      port: lbPort,
      upstreamPorts: replicas.map((replica) => replica.port),
      streamRequestBodies: true,
      maxFails: 1,
      failTimeoutSeconds: 2,
    });
    note(
      `3 replicas (${replicas.map((r) => r.address).join(', ')}) behind nginx at ${publicUrl}, Redis at ${redis.url}`,
    );

    // A graceful stop revokes the tokens the replica printed: every request's token is counted while
    // it is on its way, so a stop can wait for the ones still carrying them.
    const tokenUse = new TokenUse();
    const channel = new BalancerChannel(
      publicUrl,
      replicas.map((replica) => replica.address),
      tokenUse,
    );
    const byAddress = new Map(replicas.map((replica) => [replica.address, replica]));
    let tokenSource = replicas[0]!;
    let tokens: Tokens = tokenSource.tokens!;
    const browsers = {} as Record<UserName, Browser>;
    for (const user of USERS) browsers[user.name] = await signIn(channel, user.name, user.password);

    const windows = new FaultWindows();
    const keyUse = new KeyUseCounter((address) => byAddress.get(address)?.ring[0]);
    const sameReplica = new Map<string, number>();
    let sameAfterRefusal = 0;
    const probes = { crossUser: emptyProbeCounts(), crossTool: emptyProbeCounts() };
    const oldStates: Replayable[] = [];
    const newStates: Replayable[] = [];
    let flowReplies = 0;
    let loadRunning = true;
    let faultsDone = false;

    const observe = async (event: ReplyEvent) => {
      windows.served(event.reply.replica);
      keyUse.record(event);
      if (!event.flow) return;
      const { replica } = event.reply;
      if (replica !== undefined && replica === event.previousReplica) {
        const where = windows.current() ?? OUTSIDE;
        sameReplica.set(where, (sameReplica.get(where) ?? 0) + 1);
        // nginx tried another replica first (one that was down) and passed the request on.
        if (event.reply.tried.length > 1) sameAfterRefusal++;
      }
      if (event.flow instanceof FlightFlow) {
        const round = event.flow.replayable();
        const key = round && sealingKeyOf(round.requestState);
        const kept = key === oldKey.id ? oldStates : key === newerKey.id ? newStates : undefined;
        const limit = key === oldKey.id ? KEEP_OLD_STATES : KEEP_NEW_STATES;
        if (
          round &&
          kept &&
          kept.length < limit &&
          !kept.some((r) => r.requestState === round.requestState)
        ) {
          kept.push(round);
        }
        if (++flowReplies % PROBE_EVERY === 0 && round) await probeState(channel, tokens, round, probes);
      }
    };

    /** Waits until `replica` served a response again (sending padding when no load runs). */
    const servedAgain = async (window: FaultWindow) => {
      windows.restarted(window);
      const deadline = Date.now() + 20_000;
      while (window.servedAgainAt === undefined && Date.now() < deadline) {
        if (loadRunning) await new Promise((resolve) => setTimeout(resolve, 20));
        else
          await observe({
            flow: undefined,
            step: undefined,
            reply: await channel.send(toolsList(tokens.alice)),
            previousReplica: undefined,
            unclear: undefined,
          });
      }
      if (window.servedAgainAt === undefined) note(`${window.replica} did not serve again within 20 s`);
    };

    /** Before a graceful stop revokes a replica's tokens, the driver moves to another replica's. */
    const moveTokensOff = (replica: Replica) => {
      if (tokenSource !== replica) return;
      tokenSource = replicas.find((other) => other !== replica && other.running && other.tokens)!;
      tokens = tokenSource.tokens!;
      note(`driver now uses the tokens ${tokenSource.name} printed`);
    };

    /** SIGTERM, once no request in flight still carries the tokens the stop revokes. */
    const stopGracefully = async (replica: Replica) => {
      moveTokensOff(replica);
      const printed = Object.values(replica.tokens ?? {}).map((token) => `Bearer ${token}`);
      if (!(await tokenUse.drained(printed, 15_000)))
        note(`  requests with ${replica.name}'s tokens were still in flight after 15 s`);
      await replica.stop();
    };

    const rolling = async (keys: readonly RingKey[], label: string) => {
      note(`${label}: rolling restart with PARLEY_STATE_KEYS=${keys.map((key) => key.id).join(',')}`);
      for (const replica of replicas) {
        const window = windows.open(label, replica.address);
        await stopGracefully(replica);
        await replica.start(ringText(keys));
        await servedAgain(window);
        note(`  ${replica.name} restarted with ${replica.ring.join(',')}`);
      }
    };

    const driver = new Driver({
      channel,
      flows: options.flows,
      active: options.active,
      seed: options.seed,
      tokens: () => tokens,
      browsers,
      onReply: observe,
      loseResponseEvery: 50,
      keepGoing: () => !faultsDone,
    });
    const until = async (share: number) => {
      while (driver.progress < share && loadRunning) await new Promise((resolve) => setTimeout(resolve, 25));
    };

    const faults = (async () => {
      await until(0.15);
      const victim = replicas[1]!;
      const window = windows.open('kill', victim.address);
      let killedMidRequest = false;
      const killed = driver.killDuringRequest(victim.address, async () => {
        await new Promise((resolve) => setTimeout(resolve, 40)); // the request reaches the replica
        await victim.kill();
        killedMidRequest = true;
      });
      await Promise.race([killed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (!killedMidRequest) {
        driver.cancelKill();
        await victim.kill();
      }
      note(`${victim.name} killed (SIGKILL)${killedMidRequest ? ' with a request inside it' : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await victim.start(ringText([oldKey]));
      await servedAgain(window);
      note(`${victim.name} restarted and serving again`);

      await until(0.35);
      await rolling([oldKey, newerKey], 'rotation step 1, new key added (old key still seals)');
      await until(0.6);
      await rolling([newerKey, oldKey], 'rotation step 2, new key seals (old key still opens)');
      faultsDone = true;
    })();
    const faultsFinished = faults.then(
      () => undefined,
      (error: unknown) => {
        faultsDone = true;
        return error;
      },
    );

    await driver.run();
    loadRunning = false;
    const faultError = await faultsFinished;
    if (faultError) throw faultError;
    note(`load finished: ${driver.results.length} flows`);

    // After the load: old-key states open everywhere until the old key is dropped, then nowhere.
    const replay = async (
      states: readonly Replayable[],
      expect: 'open' | 'refused',
    ): Promise<ReplayCheck> => {
      const check: ReplayCheck = { sent: 0, asExpected: 0, replicas: new Set(), other: [] };
      for (const round of states) {
        for (let attempt = 0; attempt < 3; attempt++) {
          const reply = await channel.send(
            toolCall({
              tool: round.tool,
              token: tokens[round.user],
              clientName: 'fleet-replay',
              inputResponses: round.inputResponses,
              requestState: round.requestState,
            }),
          );
          if (unclearReason(reply) !== undefined) continue;
          const outcome = outcomeOf(reply);
          check.sent++;
          const opened = outcome.kind === 'input_required';
          const refused = outcome.kind === 'rpc_error' && outcome.code === -32602;
          if ((expect === 'open' && opened) || (expect === 'refused' && refused)) {
            check.asExpected++;
            if (reply.replica) check.replicas.add(reply.replica);
          } else {
            check.other.push(
              outcome.kind === 'rpc_error' ? `${outcome.code} ${outcome.message}` : outcome.kind,
            );
          }
          break;
        }
      }
      return check;
    };
    const oldBeforeDrop = await replay(oldStates, 'open');
    await rolling([newerKey], 'rotation step 3, old key dropped');
    const oldAfterDrop = await replay(oldStates, 'refused');
    const newAfterDrop = await replay(newStates, 'open');

    // Both eras at once, no affinity: 2025-era sessions on any replica through the Redis router.
    let ring: RingKey[] = [newerKey];
    const thirdKey = newKey('k-2026-12');
    const restartOne = async (replica: Replica, keys: readonly RingKey[], router = true) => {
      await stopGracefully(replica);
      await replica.start(ringText(keys), { sessionRouter: router });
    };
    const mixedFaults: MixedFault[] = [
      {
        at: 0.15,
        name: `${replicas[0]!.name} killed (SIGKILL) while flows of both eras are in flight`,
        async run() {
          const victim = replicas[0]!;
          if (tokenSource === victim) moveTokensOff(victim);
          await victim.kill();
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          await victim.start(ringText(ring));
          note(`  ${victim.name} restarted`);
        },
      },
      {
        at: 0.35,
        name: `rotation to ${thirdKey.id}, step 1: rolling restart with ${newerKey.id},${thirdKey.id}`,
        async run() {
          ring = [newerKey, thirdKey];
          for (const replica of replicas) await restartOne(replica, ring);
          note('  every replica restarted with the new key added');
        },
      },
      {
        at: 0.55,
        name: `rotation to ${thirdKey.id}, step 2: rolling restart with ${thirdKey.id},${newerKey.id}`,
        async run() {
          ring = [thirdKey, newerKey];
          for (const replica of replicas) await restartOne(replica, ring);
          note('  every replica restarted sealing with the new key');
        },
      },
      {
        at: 0.75,
        name: 'Redis restarted (down 1 s, back empty)',
        async run() {
          await redis.restart(1_000);
          note('  Redis serving again');
        },
      },
    ];
    const mixedOptions = { tokens: () => tokens, tokenUse, note, graceMs: 120_000 };
    note(
      `both eras at once: ${options.mixedFlows}+ flows per era, ${options.mixedActive} in flight, no affinity`,
    );
    const mixedRun = await runMixed({
      ...mixedOptions,
      origin: publicUrl,
      perEra: options.mixedFlows,
      active: options.mixedActive,
      seed: options.seed + 1,
      firstId: 100_000,
      faults: mixedFaults,
    });
    const mixed: MixedReport = {
      label: 'no affinity, Redis session router',
      run: mixedRun,
      perEra: options.mixedFlows,
      active: options.mixedActive,
      expectAway: true,
    };
    note(`both eras at once finished: ${mixedRun.results.length} flows`);

    // The simpler alternative: nginx keeps each session on one replica; no session router.
    let sticky: MixedReport | undefined;
    if (options.stickyFlows > 0) {
      note('sticky routing: replicas restarted without the session router, nginx routing on the session id');
      for (const replica of replicas) await restartOne(replica, ring, false);
      const stickyNginx = await startNginx({
        upstreamPorts: replicas.map((replica) => replica.port),
        streamRequestBodies: true,
        maxFails: 1,
        failTimeoutSeconds: 2,
        sessionPrefixes: replicas.map((replica) => replica.name),
      });
      try {
        const stickyActive = 16;
        const stickyRun = await runMixed({
          ...mixedOptions,
          origin: stickyNginx.url,
          perEra: options.stickyFlows,
          active: stickyActive,
          seed: options.seed + 2,
          firstId: 200_000,
          faults: [
            {
              at: 0.3,
              name: `sticky: ${replicas[2]!.name} killed (SIGKILL); its sessions start again elsewhere`,
              async run() {
                const victim = replicas[2]!;
                if (tokenSource === victim) moveTokensOff(victim);
                await victim.kill();
                await new Promise((resolve) => setTimeout(resolve, 1_500));
                await victim.start(ringText(ring), { sessionRouter: false });
                note(`  ${victim.name} restarted`);
              },
            },
          ],
        });
        sticky = {
          label: "sticky routing (nginx maps the session id's replica prefix), no session router",
          run: stickyRun,
          perEra: options.stickyFlows,
          active: stickyActive,
          expectAway: false,
        };
        note(`sticky routing finished: ${stickyRun.results.length} flows`);
      } finally {
        await stickyNginx.stop();
      }
    }

    const eraResults: EraResult[] = [...mixedRun.results, ...(sticky?.run.results ?? [])];
    const audit = await auditBookings(channel, tokens, [...driver.results, ...eraResults]);

    const report: FleetReport = {
      durationMs: record.elapsedMs,
      seed: options.seed,
      flowsAsked: options.flows,
      results: driver.results,
      stats: driver.stats,
      channel: channel.stats(),
      replicas: replicas.map((replica) => ({
        name: replica.name,
        address: replica.address,
        starts: replica.starts,
      })),
      sameReplica,
      sameAfterRefusal,
      windows: windows.all,
      timeline,
      keyUse: keyUse.use,
      keys: { old: oldKey.id, new: newerKey.id },
      probes,
      audit,
      rotation: { oldBeforeDrop, oldAfterDrop, newAfterDrop },
      mixed,
      ...(sticky && { sticky }),
      logDir,
    };
    keepLogs = problemsOf(report).length > 0;
    return report;
  } finally {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await nginx?.stop();
    await redis.stop();
    record.finish(keepLogs);
  }
}

/** A browser signed in to the store as `user`, through the balancer. */
async function signIn(channel: BalancerChannel, user: string, password: string): Promise<Browser> {
  const browser = new Browser(channel.origin);
  const page = await channel.send(browser.get('/signin'));
  browser.receive(page);
  const csrf = hiddenField(page.body, 'csrf');
  if (page.status !== 200 || !csrf) throw new Error(`The sign-in page did not load (HTTP ${page.status}).`);
  const posted = await channel.send(
    browser.post('/signin', { csrf, return_to: '/', username: user, password }),
  );
  browser.receive(posted);
  if (posted.status !== 303 || !browser.signedIn)
    throw new Error(`${user} could not sign in (HTTP ${posted.status}).`);
  return browser;
}
