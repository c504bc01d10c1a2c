import type { FaultWindow } from '../fault-windows.js';
import { placeText } from '../mixed/era-result.js';
import { OUTSIDE } from '../report.js';
import type { TripResult } from './trip-flow.js';

/** The kill of the run: which replica, and the flows whose calls it held at that moment. */
export interface KillRecord {
  readonly victim: string;
  /** Ids of the flows in progress whose upstream call the victim held. */
  readonly held: readonly number[];
  /** Whether a request was inside it when it died. */
  readonly midRequest: boolean;
  /** What that request was (e.g. an answer to a call another replica holds). */
  readonly cut?: string;
}

/** Everything the gateway fleet run measured. */
export interface GatewayReport {
  readonly durationMs: number;
  readonly seed: number;
  readonly flowsAsked: number;
  readonly active: number;
  readonly results: readonly TripResult[];
  /** What each replica said about the upstream when it started (`trips: 2025-11-25, 1 tools, ...`). */
  readonly upstreamLine: string;
  readonly replicas: readonly { name: string; address: string; starts: number }[];
  readonly rounds: {
    /** First rounds of calls (each parks the upstream call on the replica that served it). */
    begun: number;
    /** Later rounds (answers to a held call) that got a reply. */
    answered: number;
    /** Of those, served by another replica than the holder: passed on over Redis. */
    passedOn: number;
    /** Of those, served by the holder itself, by fault window. */
    onHolder: Map<string, number>;
  };
  readonly channel: { sent: number; served: ReadonlyMap<string, number>; predicted: number; missed: number };
  readonly sequencer: {
    padding: number;
    resent: number;
    cutByKill: number;
    gaveUp: number;
    lostReplies: number;
  };
  readonly windows: readonly FaultWindow[];
  readonly timeline: readonly { at: number; text: string }[];
  readonly kill: KillRecord | undefined;
  readonly logDir: string;
}

/** What a host is told when the replica holding its call is gone (`RedisLiveCallRouter`). */
const GONE = /^The gateway replica (\S+) that held this call is gone/;

/** What makes the run fail; empty when it passed. */
export function gatewayProblems(report: GatewayReport): string[] {
  const problems: string[] = [];
  const { results, kill } = report;
  const of = (status: TripResult['status']) => results.filter((result) => result.status === status);
  if (results.length < report.flowsAsked)
    problems.push(`only ${results.length} flows ran of ${report.flowsAsked}`);
  if (of('wrong').length > 0)
    problems.push(`wrong = ${of('wrong').length}: a flow was asked or given data that was not its own`);
  if (of('lost').length > 0) problems.push(`lost = ${of('lost').length}: flows never ended`);
  if (kill === undefined) problems.push('no replica was killed');
  else if (kill.held.length === 0) problems.push(`no flow held a call on ${kill.victim} when it was killed`);
  const held = new Set(kill?.held ?? []);
  for (const result of of('failed')) {
    if (!held.has(result.id))
      problems.push(
        `flow ${result.id} failed though the killed replica did not hold its call: ${result.reason}`,
      );
    else if (GONE.exec(result.reason ?? '')?.[1] !== kill?.victim)
      problems.push(
        `flow ${result.id} lost its call with ${kill?.victim} but was not told so: ${result.reason}`,
      );
  }
  if (report.rounds.passedOn === 0) problems.push('no answer reached its held call through another replica');
  const outside = report.rounds.onHolder.get(OUTSIDE) ?? 0;
  if (outside > 0)
    problems.push(
      `${outside} answers were served by the replica holding their call, outside any fault window`,
    );
  return problems;
}

const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

/** The report, as printed at the end of `npm run test:fleet:gateway`. */
export function formatGatewayReport(report: GatewayReport): string {
  const name = new Map(report.replicas.map((replica) => [replica.address, replica.name]));
  const nameOf = (address: string) => name.get(address) ?? address;
  const { results, kill } = report;
  const of = (status: TripResult['status']) => results.filter((result) => result.status === status);
  const held = new Set(kill?.held ?? []);
  const lines: string[] = [];
  lines.push('=== Parley gateway fleet report ===');
  lines.push(
    `3 gateway replicas (parley gateway with a fleet section: Redis live-call router, question pages and ` +
      `sessions in Redis, one key ring) behind nginx (round-robin, no affinity), in front of a 2025-only ` +
      `upstream (TypeScript SDK v1; "${report.upstreamLine}"); 2026-07-28 hosts (Parley's client, one per flow); ` +
      `seed ${report.seed}; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push('');
  lines.push(
    `flows: ${results.length} (asked for ${report.flowsAsked}, ${report.active} in progress at once), ` +
      'each book_trip: three questions, each answer on another replica than the one holding the call',
  );
  const failed = of('failed');
  const named = failed.filter((result) => held.has(result.id) && GONE.test(result.reason ?? ''));
  lines.push(`  completed ${of('completed').length}`);
  lines.push(
    `  retried   ${results.filter((result) => result.resent > 0).length} (flows with a request sent again after an unclear failure; ` +
      `${results.filter((result) => result.resent > 0 && result.status === 'completed').length} of them completed)`,
  );
  lines.push(
    `  failed    ${failed.length} (${named.length} told by name that the replica holding their call was killed)`,
  );
  lines.push(`  wrong     ${of('wrong').length}`);
  lines.push(`  lost      ${of('lost').length}`);
  const notCompleted = results.filter((result) => result.status !== 'completed');
  for (const result of notCompleted.slice(0, 25))
    lines.push(
      `    flow ${result.id} (${result.marker}) ${result.status}${placeText(result.at, nameOf)}` +
        `${result.resent > 0 ? `, ${result.resent} requests sent again` : ''}: ${result.reason}`,
    );
  if (notCompleted.length > 25) lines.push(`    … and ${notCompleted.length - 25} more`);
  lines.push('');

  const { rounds } = report;
  lines.push('held calls (each answer vs. the replica holding its call):');
  lines.push(
    `  calls begun ${rounds.begun}; answers ${rounds.answered}: through another replica (passed on over Redis) ` +
      `${rounds.passedOn} (${pct(rounds.passedOn, rounds.answered)}), on the holder itself ` +
      `${[...rounds.onHolder].map(([where, n]) => `${n} in ${where}`).join('; ') || '0'}`,
  );
  lines.push(
    `  requests sent: ${report.channel.sent}; padding (tools/list so no answer lands on its holder): ${report.sequencer.padding}; ` +
      `next replica mispredicted: ${report.channel.missed} of ${report.channel.predicted}`,
  );
  lines.push(
    `  served per replica: ${[...report.channel.served].map(([address, n]) => `${nameOf(address)} ${n}`).join(', ')}`,
  );
  lines.push('');

  lines.push('faults:');
  for (const event of report.timeline) lines.push(`  ${event.at.toFixed(1).padStart(6)} s  ${event.text}`);
  lines.push(
    `  requests cut inside the killed replica: ${report.sequencer.cutByKill}; answers whose reply was thrown ` +
      `away as lost (every 40th; sent again, the holder must give the same step): ${report.sequencer.lostReplies}; ` +
      `requests sent again after an unclear failure: ${report.sequencer.resent}; given up after 8: ${report.sequencer.gaveUp}`,
  );
  if (kill) {
    const heldResults = results.filter((result) => held.has(result.id));
    lines.push(
      `  flows holding a call on ${kill.victim} when it was killed: ${kill.held.length}; failed with the named error ` +
        `${heldResults.filter((result) => named.includes(result)).length}, completed ` +
        `${heldResults.filter((result) => result.status === 'completed').length} (their call had ended before the kill)`,
    );
  }
  lines.push('');

  const problems = gatewayProblems(report);
  lines.push(
    `RESULT: ${results.length} flows; completed ${of('completed').length}, failed ${failed.length} ` +
      `(named ${named.length}), wrong ${of('wrong').length}, lost ${of('lost').length}: ` +
      (problems.length === 0 ? 'PASS' : 'FAIL'),
  );
  for (const problem of problems) lines.push(`  - ${problem}`);
  return lines.join('\n');
}
