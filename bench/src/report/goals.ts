import { FEATURE_KINDS, type FeatureKind } from '../servers/kinds.js';
import type { LoadSummary } from '../workloads/flows.js';
import type { Release } from '../workloads/memory.js';
import { parleyPendingKb, pendingFloorKb } from '../workloads/pending-cost.js';
import { SDK_PARTY } from '../workloads/profile.js';
import { GATEWAY_FLOWS_GOAL, gatewayRatio, PARKED_CALL_GOAL } from './gateway-report.js';
import type { BenchResults, GoalCheck } from './results.js';

type Measured = Omit<BenchResults, 'goals'>;

/** Issue 25: no feature on the round path may cost more than this share of server CPU per round. */
export const FEATURE_COST_GOAL_PCT = 3;
const SDK_GOAL = 2.5;
const JSON_FLOOR_GOAL_PCT = 60;

const FEATURE_NAMES: Record<FeatureKind, string> = {
  'parley-use': 'an empty server.use()',
  'parley-otel': 'telemetry() without an exporter',
};

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const waiting = (release: Release) =>
  release.releasedInMs === undefined
    ? `${release.handlersRunning} still waiting`
    : `0 waiting after ${Math.round(release.releasedInMs)} ms`;

function check(goal: string, target: string, measured: string, met: boolean, note?: string): GoalCheck {
  return { goal, target, measured, met, ...(note !== undefined && { note }) };
}

function notMeasured(goal: string, target: string, why: string): GoalCheck {
  return { goal, target, measured: '—', met: undefined, note: why };
}

/**
 * How much of a Parley round the official SDK's own work takes (its share of Parley's profile, of
 * the CPU per round), beside the CPU per round that would reach the JSON-floor goal if flows/s
 * went as the inverse of CPU per round: what Parley alone cannot go below.
 */
function sdkPartOfRound(results: Measured, parley: LoadSummary, jsonFloor: LoadSummary): string | undefined {
  const sdk = results.profiles?.parley?.byParty.find((row) => row.party === SDK_PARTY);
  if (!sdk) return undefined;
  const sdkUs = (parley.cpuPerRoundUs * sdk.percent) / 100;
  const budgetUs = jsonFloor.cpuPerRoundUs / (JSON_FLOOR_GOAL_PCT / 100);
  return `the SDK's part of a Parley round alone is ${fixed(sdkUs, 0)} µs (${fixed(sdk.percent, 0)}% of its profile); ${JSON_FLOOR_GOAL_PCT}% of the floor allows about ${fixed(budgetUs, 0)} µs a round`;
}

/**
 * What the SDK floor (the floor's tool served through the official SDK, nothing of Parley's)
 * reaches of the JSON floor: the most any server the SDK serves can reach in this run.
 */
function sdkFloorReach(parley: LoadSummary, jsonFloor: LoadSummary, sdkFloor: LoadSummary): string {
  const reach = (100 * sdkFloor.flowsPerSecond) / jsonFloor.flowsPerSecond;
  const parleyShare = (100 * parley.flowsPerSecond) / sdkFloor.flowsPerSecond;
  return (
    `the SDK floor (this tool served by the official SDK alone) reaches ${fixed(reach, 0)}% ` +
    `(${fixed(sdkFloor.cpuPerRoundUs, 0)} µs a round against ${fixed(jsonFloor.cpuPerRoundUs, 0)}); ` +
    `Parley is ${fixed(parleyShare, 0)}% of the SDK floor`
  );
}

/**
 * The issue's goals, each a ratio or bound checked against numbers of this one run. A goal whose
 * workload did not run (or cannot run yet) is listed as not measured, never as met.
 */
export function checkGoals(results: Measured): GoalCheck[] {
  const goals: GoalCheck[] = [];
  const c16 = results.flows?.['q1-c16'];
  const parley = c16?.parley;
  const sdk = c16?.sdk;
  const floor = c16?.floor;

  const vsSdk = `Parley ≥ ${SDK_GOAL}× the raw SDK flows/s, (a) c16`;
  const sdkTarget = `≥ ${fixed(SDK_GOAL, 2)}×`;
  if (parley && sdk) {
    const ratio = parley.flowsPerSecond / sdk.flowsPerSecond;
    const ok = ratio >= SDK_GOAL;
    goals.push(
      check(
        vsSdk,
        sdkTarget,
        `${fixed(ratio, 2)}×`,
        ok,
        ok ? undefined : `${fixed((SDK_GOAL / ratio - 1) * 100, 0)}% short`,
      ),
    );
  } else goals.push(notMeasured(vsSdk, sdkTarget, 'workload (a) not run'));

  const vsJson = `Parley ≥ ${JSON_FLOOR_GOAL_PCT}% of the JSON floor flows/s, (a) c16`;
  const jsonFloor = c16?.['json-floor'];
  if (parley && jsonFloor) {
    const share = (100 * parley.flowsPerSecond) / jsonFloor.flowsPerSecond;
    const ok = share >= JSON_FLOOR_GOAL_PCT;
    const sdkFloor = c16?.['sdk-floor'];
    const why = [
      `${fixed(JSON_FLOOR_GOAL_PCT / share, 1)}× too slow`,
      sdkFloor && sdkFloorReach(parley, jsonFloor, sdkFloor),
      sdkPartOfRound(results, parley, jsonFloor),
    ];
    goals.push(
      check(
        vsJson,
        `≥ ${JSON_FLOOR_GOAL_PCT}%`,
        `${fixed(share, 0)}%`,
        ok,
        ok ? undefined : why.filter((part) => part !== undefined).join('; '),
      ),
    );
  } else goals.push(notMeasured(vsJson, `≥ ${JSON_FLOOR_GOAL_PCT}%`, 'workload (a) not run'));

  const vsFloor = 'Parley ≥ 50% of the bare floor flows/s, (a) c16';
  if (parley && floor) {
    const share = (100 * parley.flowsPerSecond) / floor.flowsPerSecond;
    goals.push(
      check(
        vsFloor,
        '≥ 50%',
        `${fixed(share, 0)}%`,
        share >= 50,
        share >= 50 ? undefined : `${fixed(50 / share, 1)}× too slow`,
      ),
    );
  } else goals.push(notMeasured(vsFloor, '≥ 50%', 'workload (a) not run'));

  for (const kind of FEATURE_KINDS) {
    const goal = `${FEATURE_NAMES[kind]} costs ≤ ${FEATURE_COST_GOAL_PCT}% CPU per round, (a) c16`;
    const target = `≤ ${FEATURE_COST_GOAL_PCT}%`;
    const cost = results.featureCosts?.costs[kind];
    if (!cost) {
      goals.push(notMeasured(goal, target, 'workload (a) not run'));
      continue;
    }
    const ok = cost.cpuPct <= FEATURE_COST_GOAL_PCT;
    const spread = cost.cpuPctByProcess.map((pct) => `${fixed(pct)}%`).join(', ');
    goals.push(
      check(
        goal,
        target,
        `${fixed(cost.cpuPct)}% CPU per round (flows/s ${fixed(-cost.flowsPct)}%)`,
        ok,
        `median of ${cost.cpuPctByProcess.length} process${cost.cpuPctByProcess.length === 1 ? '' : 'es'}, ${cost.pairs} pairs (by process: ${spread})` +
          (ok ? '' : `; ${fixed(cost.cpuPct / FEATURE_COST_GOAL_PCT, 1)}× the bound`),
      ),
    );
  }

  const p99 = 'Round p99 no worse than the raw SDK, (a) c16';
  if (parley && sdk) {
    const ok = parley.roundP99Ms <= sdk.roundP99Ms;
    goals.push(
      check(
        p99,
        `≤ ${fixed(sdk.roundP99Ms)} ms`,
        `${fixed(parley.roundP99Ms)} ms`,
        ok,
        ok ? undefined : `${fixed(parley.roundP99Ms / sdk.roundP99Ms, 2)}× the SDK's`,
      ),
    );
  } else goals.push(notMeasured(p99, '≤ the SDK', 'workload (a) not run'));

  const replay = 'Parley CPU per round, 20-question flow ≤ 3× 1-question flow, (b)';
  const one = results.flows?.['q1-c16']?.parley;
  const twenty = results.flows?.['q20-c16']?.parley;
  if (one && twenty) {
    const ratio = twenty.cpuPerRoundUs / one.cpuPerRoundUs;
    goals.push(
      check(
        replay,
        '≤ 3.00×',
        `${fixed(ratio, 2)}× (${fixed(twenty.cpuPerRoundUs, 0)} vs ${fixed(one.cpuPerRoundUs, 0)} µs)`,
        ratio <= 3,
      ),
    );
  } else goals.push(notMeasured(replay, '≤ 3.00×', 'workload (b) not run'));

  const seal = 'Seal + open per round, (c)';
  if (results.stateCodec && results.stateCodec.length > 0) {
    const worst = results.stateCodec.reduce((a, b) => (b.parleyUs > a.parleyUs ? b : a));
    const ok = worst.parleyUs <= 40;
    goals.push(
      check(
        seal,
        '≤ 40 µs',
        `${fixed(worst.parleyUs)} µs (worst: ${worst.questions}-question flow${
          worst.parleySpreadUs
            ? `, its windows' middle half ${fixed(worst.parleySpreadUs[0])}–${fixed(worst.parleySpreadUs[1])} µs`
            : ''
        }; AES-GCM alone ${fixed(worst.aesGcmUs)} µs here)`,
        ok,
        ok ? undefined : `${fixed(worst.parleyUs / 40, 1)}× the bound`,
      ),
    );
  } else goals.push(notMeasured(seal, '≤ 40 µs', 'workload (c) not run'));

  const size = 'State size ≤ 200 + the answers’ own bytes, (c)';
  const wire = results.wireState?.parley;
  if (wire) {
    const ok = wire.maxOverheadChars <= 200;
    goals.push(
      check(
        size,
        'overhead ≤ 200',
        `overhead ${wire.maxOverheadChars} (state ${wire.stateChars.at(-1)} for ${wire.answerBytes.at(-1)} bytes of answers)`,
        ok,
        ok ? undefined : `${wire.maxOverheadChars - 200} over`,
      ),
    );
  } else goals.push(notMeasured(size, 'overhead ≤ 200', 'workload (c) not run'));

  const held = 'Modern flows in flight hold no server memory, (f)';
  const modern = results.memory?.modern.parley;
  if (modern) {
    const perFlow = ((modern.inFlight.heapMb - modern.after.heapMb) * 2 ** 20) / modern.flows;
    const ok = perFlow <= 100;
    goals.push(
      check(held, '≤ 100 B heap per flow', `${fixed(perFlow, 0)} B per flow (${modern.flows} flows)`, ok),
    );
  } else goals.push(notMeasured(held, '≤ 100 B heap per flow', 'workload (f) not run'));

  const pending = results.memory?.pending;
  const timedOut = '2025-era questions pending are all held, and released on timeout, (f)';
  const disconnected = '2025-era questions released on disconnect (session end; dropped connection), (f)';
  if (pending) {
    const all = pending.pending.handlersRunning === pending.questions;
    const byTimeout = pending.afterTimeout.releasedInMs !== undefined;
    goals.push(
      check(
        timedOut,
        `${pending.questions} held, then 0`,
        `${pending.pending.handlersRunning} held; ${waiting(pending.afterTimeout)} after the timeout`,
        all && byTimeout,
        all
          ? undefined
          : `only ${pending.pending.handlersRunning} were pending at once (asking took ${fixed(pending.setupMs / 1000)} s)`,
      ),
    );
    const byEnd = pending.afterSessionEnd.releasedInMs !== undefined;
    const byDrop = pending.afterDrop.releasedInMs !== undefined;
    goals.push(
      check(
        disconnected,
        '0 waiting soon after',
        `session end: ${waiting(pending.afterSessionEnd)}; dropped: ${waiting(pending.afterDrop)} (resume grace ${pending.resumeGraceMs} ms)`,
        byEnd && byDrop,
        byDrop ? undefined : 'a dropped connection leaves its questions waiting until the question timeout',
      ),
    );
  } else {
    goals.push(notMeasured(timedOut, 'all released', 'workload (f) not run'));
    goals.push(notMeasured(disconnected, 'all released', 'workload (f) not run'));
  }

  // Issue 25: what one pending 2025-era question costs against the layers underneath (a held
  // node:http response plus the SDK's own pending request, measured in the same run), and what an
  // idle 2025-era session costs.
  const perQuestion = 'Heap per pending 2025-era question, (f)';
  const perSession = 'Heap per idle 2025-era session, (f)';
  if (pending) {
    const kb = parleyPendingKb(pending);
    const floors = results.memory?.floors;
    if (kb === undefined) {
      goals.push(
        notMeasured(
          perQuestion,
          '≤ 1.10× its floor',
          `only ${pending.pending.handlersRunning} of ${pending.questions} questions were pending at the reading`,
        ),
      );
    } else if (floors) {
      const floorKb = pendingFloorKb(floors);
      const ratio = kb / floorKb;
      goals.push(
        check(
          perQuestion,
          '≤ 1.10× its floor',
          `${fixed(kb)} KB (${pending.questions} pending), ${fixed(ratio, 2)}× the floor`,
          ratio <= 1.1,
          `floor: ${fixed(floors.heldResponse.heapKbEach)} KB held HTTP response + ${fixed(floors.sdkStdio.heapKbEach)} KB SDK request = ${fixed(floorKb)} KB`,
        ),
      );
    } else goals.push(notMeasured(perQuestion, '≤ 1.10× its floor', 'the floors were not measured'));
  } else goals.push(notMeasured(perQuestion, '≤ 1.10× its floor', 'workload (f) not run'));
  const sessions = results.memory?.sessions;
  const sdkSessions = results.memory?.sdkSessions;
  const sessionGoalKb = 12;
  if (sessions) {
    const kb = sessions.heapKbPerSession;
    goals.push(
      check(
        perSession,
        `≤ ${sessionGoalKb} KB`,
        `${fixed(kb)} KB (${sessions.sessions} sessions)`,
        kb <= sessionGoalKb,
        [
          kb <= sessionGoalKb ? undefined : `${fixed(kb / sessionGoalKb, 1)}× the goal`,
          sdkSessions && `the raw SDK's own idle session: ${fixed(sdkSessions.heapKbPerSession)} KB`,
        ]
          .filter(Boolean)
          .join('; ') || undefined,
      ),
    );
  } else goals.push(notMeasured(perSession, `≤ ${sessionGoalKb} KB`, 'workload (f) not run'));

  // Issue 26: a host with many calls in flight on one session, with the default limits.
  const oneHostGoal =
    'One 2025-era session with 1,000 calls in flight gets every answer, default limits, (f)';
  const host = results.memory?.oneHost;
  if (host) {
    goals.push(
      check(
        oneHostGoal,
        `${host.calls} of ${host.calls} delivered`,
        `${host.delivered} of ${host.calls} delivered (${host.peakConnections} connections at most)`,
        host.delivered === host.calls,
      ),
    );
  } else goals.push(notMeasured(oneHostGoal, 'all delivered', 'workload (f) not run'));

  const renderer = results.renderer;
  const sizeGoal = 'Form renderer size, min + gzip, (g)';
  const timeGoal = '20-field form render time in Chromium, (g)';
  if (renderer?.status === 'ok') {
    const kb = renderer.gzipBytes / 1024;
    const limitKb = renderer.goals.gzipBytes / 1024;
    goals.push(
      check(
        sizeGoal,
        `≤ ${fixed(limitKb, 0)} KB`,
        `${fixed(kb)} KB (${fixed(renderer.minifiedBytes / 1024)} KB minified)`,
        kb <= limitKb,
      ),
    );
    goals.push(
      check(
        timeGoal,
        `≤ ${renderer.goals.renderMs} ms`,
        `${fixed(renderer.renderMs, 2)} ms median of ${renderer.runs} (first render ${fixed(renderer.firstRenderMs, 2)} ms)`,
        renderer.renderMs <= renderer.goals.renderMs,
      ),
    );
  } else {
    const why = renderer?.reason ?? 'workload (g) not run';
    goals.push(notMeasured(sizeGoal, '≤ 15 KB', why));
    goals.push(notMeasured(timeGoal, '≤ 16 ms', why));
  }
  goals.push(...gatewayGoals(results));
  return goals;
}

/** Issue 39: the gateway against the same upstream spoken to directly, and what a parked call costs. */
function gatewayGoals(results: Measured): GoalCheck[] {
  const flowsGoal = `The gateway ≥ ${GATEWAY_FLOWS_GOAL}× direct flows/s, 2026-07-28 host > 2026-07-28 upstream, (h) c16`;
  const flowsTarget = `≥ ${fixed(GATEWAY_FLOWS_GOAL, 2)}×`;
  const parkedGoal = 'Heap per parked call ≤ 2× a pending 2025-era question, (h)';
  const parkedTarget = `≤ ${fixed(PARKED_CALL_GOAL, 2)}×`;
  const gateway = results.gateway;
  if (!gateway)
    return [
      notMeasured(flowsGoal, flowsTarget, 'workload (h) not run'),
      notMeasured(parkedGoal, parkedTarget, 'workload (h) not run'),
    ];
  const goals: GoalCheck[] = [];
  const modern = gatewayRatio(gateway, 'gateway-2026', 'direct-2026');
  const floor = gatewayRatio(gateway, 'forward-2026', 'direct-2026');
  if (modern) {
    const ok = modern.ratio >= GATEWAY_FLOWS_GOAL;
    const underFloor = floor
      ? `; the forwarding floor reached ${fixed(floor.ratio, 2)}× on the same cores (${fixed(floor.through.cpuPerRoundUs, 0)} µs a round), so the gateway keeps ${fixed((100 * modern.ratio) / floor.ratio, 0)}% of what forwarding alone leaves`
      : '';
    goals.push(
      check(
        flowsGoal,
        flowsTarget,
        `${fixed(modern.ratio, 2)}× (${fixed(modern.through.flowsPerSecond, 0)} vs ${fixed(modern.direct.flowsPerSecond, 0)} flows/s)`,
        ok,
        `the gateway's CPU per round ${fixed(modern.through.cpuPerRoundUs, 0)} µs, the upstream's alone ${fixed(modern.direct.cpuPerRoundUs, 0)} µs` +
          (ok ? '' : `; ${fixed(GATEWAY_FLOWS_GOAL / modern.ratio, 1)}× too slow`) +
          underFloor,
      ),
    );
  } else goals.push(notMeasured(flowsGoal, flowsTarget, 'the c16 shape was not measured'));
  const { parked } = gateway;
  const ratio = parked.gateway.heapKbEach / parked.pendingQuestion.heapKbEach;
  goals.push(
    check(
      parkedGoal,
      parkedTarget,
      `${fixed(parked.gateway.heapKbEach)} KB (${parked.gateway.held} parked), ${fixed(ratio, 2)}× the ${fixed(parked.pendingQuestion.heapKbEach)} KB of a pending question`,
      ratio <= PARKED_CALL_GOAL,
      [
        `the upstream holds ${fixed(parked.upstream.heapKbEach)} KB for each of the same calls`,
        parked.clientFloor &&
          `the SDK client alone holds ${fixed(parked.clientFloor.sessionWithCall.heapKbEach)} KB for a session with a call waiting` +
            (parked.clientFloorNoGet
              ? ` (${fixed(parked.clientFloorNoGet.sessionWithCall.heapKbEach)} KB without its standalone GET stream)`
              : ''),
      ]
        .filter(Boolean)
        .join('; '),
    ),
  );
  return goals;
}
