import type { BookingAudit } from './audit.js';
import type { DriverStats, FlowResult } from './driver.js';
import type { FaultWindow } from './fault-windows.js';
import type { KeyUse } from './key-use.js';
import { placeText } from './mixed/era-result.js';
import { formatMixed, type MixedReport, mixedProblems } from './mixed/mixed-report.js';
import type { ProbeCounts } from './probes.js';

/** Replaying kept states at the end of the run. */
export interface ReplayCheck {
  sent: number;
  /** Opened (or refused) as expected. */
  asExpected: number;
  /** The replicas that answered as expected. */
  replicas: Set<string>;
  /** What the others got. */
  other: string[];
}

/** Everything a fleet run measured. */
export interface FleetReport {
  readonly durationMs: number;
  readonly seed: number;
  readonly flowsAsked: number;
  readonly results: readonly FlowResult[];
  readonly stats: DriverStats;
  readonly channel: { sent: number; served: ReadonlyMap<string, number>; predicted: number; missed: number };
  readonly replicas: readonly { name: string; address: string; starts: number }[];
  /** Flow requests served by the same replica as the flow's request before, by fault window. */
  readonly sameReplica: ReadonlyMap<string, number>;
  /** Of those, the ones nginx passed on after another replica refused the connection. */
  readonly sameAfterRefusal: number;
  readonly windows: readonly FaultWindow[];
  readonly timeline: readonly { at: number; text: string }[];
  readonly keyUse: KeyUse;
  readonly keys: { old: string; new: string };
  readonly probes: { crossUser: ProbeCounts; crossTool: ProbeCounts };
  readonly audit: BookingAudit;
  readonly rotation: { oldBeforeDrop: ReplayCheck; oldAfterDrop: ReplayCheck; newAfterDrop: ReplayCheck };
  /** Both eras at once with no affinity (the Redis session router). */
  readonly mixed: MixedReport;
  /** Both eras at once with sticky routing instead, when it ran. */
  readonly sticky?: MixedReport;
  readonly logDir: string;
}

export const MIN_FLOWS = 2000;
export const OUTSIDE = 'outside any fault window';

/** What makes the run fail; empty when it passed. */
export function problemsOf(report: FleetReport): string[] {
  const problems: string[] = [];
  const count = (status: FlowResult['status']) => report.results.filter((r) => r.status === status).length;
  const wrong =
    count('wrong') + report.probes.crossUser.accepted.length + report.probes.crossTool.accepted.length;
  if (wrong > 0)
    problems.push(
      `wrong = ${wrong}: a flow got data that was not its own, or a state opened where it must not`,
    );
  const unclearFailures = report.results.filter((r) => r.status === 'failed' && !r.retryable).length;
  if (unclearFailures > 0)
    problems.push(`${unclearFailures} flows failed with an error that is not a clear, retryable one`);
  const total = totalFlows(report);
  if (total < MIN_FLOWS) problems.push(`only ${total} flows ran; at least ${MIN_FLOWS} must`);
  problems.push(...mixedProblems(report.mixed));
  if (report.sticky) problems.push(...mixedProblems(report.sticky));
  const outside = report.sameReplica.get(OUTSIDE) ?? 0;
  if (outside > 0)
    problems.push(
      `${outside} flow requests landed on the same replica as the one before, outside any fault window`,
    );
  const { oldBeforeDrop, oldAfterDrop, newAfterDrop } = report.rotation;
  if (oldBeforeDrop.sent === 0 || oldBeforeDrop.asExpected !== oldBeforeDrop.sent)
    problems.push('states sealed with the old key did not all open while it was still in the ring');
  if (oldAfterDrop.sent === 0 || oldAfterDrop.asExpected !== oldAfterDrop.sent)
    problems.push('states sealed with the old key were not all refused after it was dropped');
  if (newAfterDrop.sent === 0 || newAfterDrop.asExpected !== newAfterDrop.sent)
    problems.push('states sealed with the new key did not all open after the old key was dropped');
  if (!report.timeline.some((event) => /killed/.test(event.text))) problems.push('no replica was killed');
  const { audit } = report;
  if (audit.missing.length > 0)
    problems.push(`${audit.missing.length} completed flows have no booking in the store (lost)`);
  if (audit.doubled.length > 0) problems.push(`${audit.doubled.length} flows were booked more than once`);
  if (audit.orphans !== 0) problems.push(`${audit.orphans} bookings in the store belong to no flow`);
  return problems;
}

/** Flows of every part of the run. */
export function totalFlows(report: FleetReport): number {
  return report.results.length + report.mixed.run.results.length + (report.sticky?.run.results.length ?? 0);
}

const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

/** The report, as printed at the end of `npm run test:fleet`. */
export function formatReport(report: FleetReport): string {
  const lines: string[] = [];
  const results = report.results;
  const by = (status: FlowResult['status']) => results.filter((r) => r.status === status);
  const completed = by('completed');
  const failed = by('failed');
  const wrong = by('wrong');
  const retried = results.filter((r) => r.retries > 0);
  const probeWrong = report.probes.crossUser.accepted.length + report.probes.crossTool.accepted.length;
  const name = new Map(report.replicas.map((replica) => [replica.address, replica.name]));
  const nameOf = (address: string) => name.get(address) ?? address;

  lines.push('=== Parley fleet report ===');
  lines.push(
    `3 Brightgrid replicas behind nginx (round-robin, no affinity), shared key ring, Redis flow store; ` +
      `seed ${report.seed}; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push('');
  lines.push(...formatMixed(report.mixed, nameOf));
  if (report.sticky) lines.push(...formatMixed(report.sticky, nameOf));
  lines.push('');
  lines.push(
    `one at a time, 2026-07-28 (every round on another replica): ${results.length} flows (asked for ${report.flowsAsked})`,
  );
  for (const kind of ['form', 'three-round', 'url'] as const) {
    const of = results.filter((r) => r.kind === kind);
    const done = of.filter((r) => r.status === 'completed').length;
    lines.push(`  ${kind.padEnd(12)} ${String(of.length).padStart(5)} flows, ${done} completed`);
  }
  lines.push(`  completed ${completed.length}`);
  lines.push(
    `  retried   ${retried.length} (flows that met an unclear failure and were retried; ` +
      `${retried.filter((r) => r.status === 'completed').length} of them completed, ` +
      `${results.filter((r) => r.recovered).length} found already booked by the booking check)`,
  );
  lines.push(
    `  failed    ${failed.length} (${failed.filter((r) => r.retryable).length} with a clear, retryable error)`,
  );
  lines.push(`  wrong     ${wrong.length + probeWrong}`);
  for (const r of [...wrong, ...failed].slice(0, 20))
    lines.push(
      `    2026-07-28 flow ${r.id} (${r.kind}, ${r.user}) ${r.status}${placeText(r.at, nameOf)}: ${r.reason}`,
    );
  for (const accepted of [...report.probes.crossUser.accepted, ...report.probes.crossTool.accepted].slice(
    0,
    10,
  )) {
    lines.push(`    probe accepted: ${accepted}`);
  }
  lines.push('');

  const { rounds, pages } = report.stats;
  const alternation = (label: string, a: typeof rounds) =>
    `  ${label}: ${a.total} served; ${a.first} first requests of a flow; of the ${a.total - a.first} after another, ` +
    `${a.alternated} on a different replica (${pct(a.alternated, a.total - a.first)}), ${a.same} on the same one`;
  lines.push('alternation (each request of a flow vs. the replica of its request before):');
  lines.push(alternation('MCP rounds   ', rounds));
  lines.push(alternation('store pages  ', pages));
  const same = [...report.sameReplica].map(([where, n]) => `${n} in ${where}`).join('; ');
  lines.push(`  same-replica requests: ${same || 'none'}`);
  if (same) {
    lines.push(
      `    ${report.sameAfterRefusal} of them after nginx first tried a replica that was down and passed the request ` +
        'on to the next live one, which the driver cannot foresee; the rest where nginx reordered while a replica left or came back',
    );
  }
  lines.push(
    `  requests sent: ${report.channel.sent}; padding (tools/list so no flow repeats a replica): ${report.stats.padding}; ` +
      `next replica mispredicted: ${report.channel.missed} of ${report.channel.predicted}`,
  );
  lines.push(
    `  served per replica: ${[...report.channel.served].map(([address, n]) => `${nameOf(address)} ${n}`).join(', ')}`,
  );
  lines.push('');

  lines.push('faults:');
  for (const event of report.timeline) lines.push(`  ${event.at.toFixed(1).padStart(6)} s  ${event.text}`);
  lines.push(
    `  requests sent again after an unclear failure: ${report.stats.resent.safe} safe re-sends, ` +
      `${report.stats.resent.checkedFirst} side-effect rounds checked with list_bookings first; ` +
      `requests cut inside a killed replica: ${report.stats.cutByKill}; ` +
      `side-effect responses thrown away as lost: ${report.stats.lostResponses}`,
  );
  const { audit } = report;
  lines.push(
    `  store audit (every part, both eras): ${audit.bookings} bookings for ${audit.flows} completed booking flows; ` +
      `missing ${audit.missing.length}, booked twice ${audit.doubled.length}, belonging to no flow ${audit.orphans}`,
  );
  for (const flow of [...audit.missing, ...audit.doubled].slice(0, 10)) {
    lines.push(`    ${flow}`);
    // What the flow met on its way, so a booking made twice (or lost) can be traced.
    const id = Number(/ flow (\d+) /.exec(flow)?.[1]);
    const parts = [report.mixed, ...(report.sticky ? [report.sticky] : [])];
    const met = parts.flatMap((part) => part.run.results).find((result) => result.id === id);
    for (const why of met?.retriedAt ?? []) lines.push(`      retried: ${why.replace(/\s+/g, ' ')}`);
  }
  lines.push('');

  lines.push(
    `key ring (old ${report.keys.old}, new ${report.keys.new}): rounds by "state sealed with -> replica seals with":`,
  );
  const pairs = new Set([...report.keyUse.opened.keys(), ...report.keyUse.refused.keys()]);
  for (const pair of [...pairs].sort()) {
    lines.push(
      `  ${pair.padEnd(28)} opened ${report.keyUse.opened.get(pair) ?? 0}, refused ${report.keyUse.refused.get(pair) ?? 0}`,
    );
  }
  const { oldBeforeDrop, oldAfterDrop, newAfterDrop } = report.rotation;
  const check = (label: string, c: typeof oldBeforeDrop) =>
    `  ${label}: ${c.asExpected} of ${c.sent} (on ${[...c.replicas].map(nameOf).sort().join(', ') || 'no replica'})` +
    (c.other.length > 0 ? `; others got ${c.other.join(', ')}` : '');
  lines.push(check('old-key states replayed before the old key was dropped, opened', oldBeforeDrop));
  lines.push(check('old-key states replayed after it was dropped, refused -32602', oldAfterDrop));
  lines.push(check('new-key states replayed after the drop, opened', newAfterDrop));
  lines.push('');

  const probe = (label: string, p: ProbeCounts) =>
    `  ${label}: ${p.refused} of ${p.sent - p.unclear} refused with -32602` +
    (p.unclear > 0 ? ` (${p.unclear} unclear, not counted)` : '');
  lines.push('states presented where they do not belong:');
  lines.push(probe("another user's state (same tool)", report.probes.crossUser));
  lines.push(probe("another tool's state (same user)", report.probes.crossTool));
  lines.push('');

  const problems = problemsOf(report);
  const eras = [report.mixed, ...(report.sticky ? [report.sticky] : [])].flatMap((part) => part.run.results);
  const eraCount = (era: string, status: string) =>
    eras.filter((result) => result.era === era && result.status === status).length;
  const eraRetried = (era: string) =>
    eras.filter((result) => result.era === era && result.retries > 0).length;
  for (const era of ['2025', '2026-07-28'] as const) {
    const oneAtATime = era === '2026-07-28' ? results : [];
    const of = (status: string) =>
      oneAtATime.filter((r) => r.status === status).length + eraCount(era, status);
    lines.push(
      `ERA ${era.padEnd(10)}: completed ${of('completed')}, retried ${oneAtATime.filter((r) => r.retries > 0).length + eraRetried(era)}, ` +
        `failed ${of('failed')}, wrong ${of('wrong') + (era === '2026-07-28' ? probeWrong : 0)}, ` +
        `lost ${eraCount(era, 'lost') + audit.missing.filter((name) => name.startsWith('2025 ') === (era === '2025')).length}`,
    );
  }
  lines.push(
    `RESULT: ${totalFlows(report)} flows; completed ${completed.length + eras.filter((r) => r.status === 'completed').length}, ` +
      `wrong ${wrong.length + probeWrong + eras.filter((r) => r.status === 'wrong').length}: ` +
      (problems.length === 0 ? 'PASS' : 'FAIL'),
  );
  for (const problem of problems) lines.push(`  - ${problem}`);
  return lines.join('\n');
}
