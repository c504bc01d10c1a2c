import type { FaultWindow } from '../fault-windows.js';
import { placeText } from '../mixed/era-result.js';
import { OUTSIDE } from '../report.js';
import type { KillRecord, RoundCounts } from './load.js';
import type { TripResult } from './trip-flow.js';

/** One part of the run: its flows, how their answers met their calls' holders, and its kill. */
export interface PartReport {
  readonly label: string;
  /** One request at a time, each answer sent only when it reaches another replica than its holder. */
  readonly sequenced: boolean;
  readonly flowsAsked: number;
  readonly active: number;
  readonly results: readonly TripResult[];
  readonly rounds: RoundCounts;
  readonly line: {
    readonly resent: number;
    readonly gaveUp: number;
    readonly lostReplies: number;
    readonly padding?: number;
    readonly cutByKill?: number;
  };
  readonly kill: KillRecord;
  readonly durationMs: number;
}

/** Everything the gateway fleet run measured. */
export interface GatewayReport {
  readonly durationMs: number;
  readonly seed: number;
  /** What a replica said about the upstream when it started (`trips: 2025-11-25, 1 tools, ...`). */
  readonly upstreamLine: string;
  readonly replicas: readonly { name: string; address: string; starts: number }[];
  /** The sequenced part's line to nginx. */
  readonly channel: { sent: number; served: ReadonlyMap<string, number>; predicted: number; missed: number };
  readonly parts: readonly PartReport[];
  readonly windows: readonly FaultWindow[];
  readonly timeline: readonly { at: number; text: string }[];
  readonly logDir: string;
}

/** What a host is told when the replica holding its call is gone (`RedisLiveCallRouter`). */
const GONE = /^The gateway replica (\S+) that held this call is gone/;

const count = (part: PartReport, status: TripResult['status']) =>
  part.results.filter((result) => result.status === status);

/**
 * The flows whose calls died with the killed replica: held by it (their first round served by it
 * before it was started again) and not ended before the kill.
 */
function heldByVictim(part: PartReport): TripResult[] {
  const { kill } = part;
  return part.results.filter(
    (result) =>
      result.holder === kill.address &&
      result.heldAt !== undefined &&
      result.heldAt < kill.restartedAt &&
      result.endedAt > kill.killedAt,
  );
}

/** The failed flows of a part told by name that the replica holding their call was killed. */
function named(part: PartReport): TripResult[] {
  const held = new Set(heldByVictim(part));
  return count(part, 'failed').filter(
    (result) => held.has(result) && GONE.exec(result.reason ?? '')?.[1] === part.kill.victim,
  );
}

/** What makes one part fail. */
function partProblems(part: PartReport): string[] {
  const problems: string[] = [];
  const where = part.label;
  if (part.results.length < part.flowsAsked)
    problems.push(`${where}: only ${part.results.length} flows ran of ${part.flowsAsked}`);
  const wrong = count(part, 'wrong').length;
  if (wrong > 0)
    problems.push(`${where}: wrong = ${wrong}: a flow was asked or given data that was not its own`);
  const lost = count(part, 'lost').length;
  if (lost > 0) problems.push(`${where}: lost = ${lost}: flows never ended`);
  const held = new Set(heldByVictim(part));
  if (held.size === 0)
    problems.push(`${where}: no flow held a call on ${part.kill.victim} when it was killed`);
  const told = new Set(named(part));
  for (const result of count(part, 'failed')) {
    if (!held.has(result))
      problems.push(
        `${where}: flow ${result.id} failed though the killed replica did not hold its call: ${result.reason}`,
      );
    else if (!told.has(result))
      problems.push(
        `${where}: flow ${result.id} lost its call with ${part.kill.victim} but was not told so: ${result.reason}`,
      );
  }
  if (part.rounds.passedOn === 0)
    problems.push(`${where}: no answer reached its held call through another replica`);
  const outside = part.rounds.onHolder.get(OUTSIDE) ?? 0;
  if (part.sequenced && outside > 0)
    problems.push(
      `${where}: ${outside} answers were served by the replica holding their call, outside any fault window`,
    );
  return problems;
}

/** What makes the run fail; empty when it passed. */
export function gatewayProblems(report: GatewayReport): string[] {
  return report.parts.flatMap(partProblems);
}

const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

function formatPart(part: PartReport, nameOf: (address: string) => string): string[] {
  const lines: string[] = [];
  const held = heldByVictim(part);
  const told = named(part);
  lines.push(
    `${part.label}: ${part.results.length} flows (asked for ${part.flowsAsked}, ${part.active} in progress at once); ` +
      `${(part.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push(`  completed ${count(part, 'completed').length}`);
  const retried = part.results.filter((result) => result.resent > 0);
  lines.push(
    `  retried   ${retried.length} (flows with a request sent again after an unclear failure; ` +
      `${retried.filter((result) => result.status === 'completed').length} of them completed)`,
  );
  lines.push(
    `  failed    ${count(part, 'failed').length} (${told.length} told by name that the replica holding their call was killed)`,
  );
  lines.push(`  wrong     ${count(part, 'wrong').length}`);
  lines.push(`  lost      ${count(part, 'lost').length}`);
  const notCompleted = part.results.filter((result) => result.status !== 'completed');
  for (const result of notCompleted.slice(0, 20))
    lines.push(
      `    flow ${result.id} (${result.marker}) ${result.status}${placeText(result.at, nameOf)}` +
        `${result.resent > 0 ? `, ${result.resent} requests sent again` : ''}: ${result.reason}`,
    );
  if (notCompleted.length > 20) lines.push(`    … and ${notCompleted.length - 20} more`);
  const { rounds } = part;
  const onHolder = part.sequenced
    ? [...rounds.onHolder]
        .map(([where, n]) => `${n} ${where === OUTSIDE ? where : `in the ${where} window`}`)
        .join('; ') || '0'
    : `${[...rounds.onHolder.values()].reduce((sum, n) => sum + n, 0)} (round-robin sends about one in three there)`;
  lines.push(
    `  calls begun ${rounds.begun}; answers ${rounds.answered}: through another replica than the call's holder ` +
      `(passed on over Redis) ${rounds.passedOn} (${pct(rounds.passedOn, rounds.answered)}), on the holder itself ${onHolder}`,
  );
  lines.push(
    `  replies thrown away as lost (every 40th answer; sent again, the holder must give the same step): ` +
      `${part.line.lostReplies}; requests sent again after an unclear failure: ${part.line.resent}; ` +
      `given up after 8: ${part.line.gaveUp}` +
      (part.line.padding !== undefined ? `; padding (tools/list): ${part.line.padding}` : '') +
      (part.line.cutByKill !== undefined ? `; requests cut by the kill: ${part.line.cutByKill}` : ''),
  );
  lines.push(
    `  flows whose call ${part.kill.victim} held when it was killed: ${held.length} (${part.kill.heldAtKill} seen just ` +
      `before; the others' first round was on its way back); failed with the named error ${told.length}, completed ` +
      `${held.filter((result) => result.status === 'completed').length} (their result had left the replica before it died)`,
  );
  return lines;
}

/** The report, as printed at the end of `npm run test:fleet:gateway`. */
export function formatGatewayReport(report: GatewayReport): string {
  const name = new Map(report.replicas.map((replica) => [replica.address, replica.name]));
  const nameOf = (address: string) => name.get(address) ?? address;
  const lines: string[] = [];
  lines.push('=== Parley gateway fleet report ===');
  lines.push(
    `3 gateway replicas (parley gateway with a fleet section: Redis live-call router, question pages and ` +
      `sessions in Redis, one key ring) behind nginx (round-robin, no affinity), in front of a 2025-only ` +
      `upstream (TypeScript SDK v1; "${report.upstreamLine}"); 2026-07-28 hosts (Parley's client, one per flow); ` +
      `each flow books a trip in three questions; seed ${report.seed}; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push('');
  for (const part of report.parts) {
    lines.push(...formatPart(part, nameOf));
    lines.push('');
  }
  lines.push(
    `one at a time: requests sent ${report.channel.sent}; next replica mispredicted: ${report.channel.missed} of ` +
      `${report.channel.predicted}; served per replica: ` +
      [...report.channel.served].map(([address, n]) => `${nameOf(address)} ${n}`).join(', '),
  );
  lines.push('');
  lines.push('timeline:');
  for (const event of report.timeline) lines.push(`  ${event.at.toFixed(1).padStart(6)} s  ${event.text}`);
  lines.push('');

  const problems = gatewayProblems(report);
  const all = report.parts.flatMap((part) => part.results);
  const of = (status: TripResult['status']) => all.filter((result) => result.status === status).length;
  lines.push(
    `RESULT: ${all.length} flows; completed ${of('completed')}, failed ${of('failed')} ` +
      `(named ${report.parts.reduce((sum, part) => sum + named(part).length, 0)}), wrong ${of('wrong')}, ` +
      `lost ${of('lost')}: ${problems.length === 0 ? 'PASS' : 'FAIL'}`,
  );
  for (const problem of problems) lines.push(`  - ${problem}`);
  return lines.join('\n');
}
