import { type Era, type EraResult, placeText } from './era-result.js';
import type { MixedRun } from './mixed-run.js';

/** One concurrent run of both eras, as the report shows it. */
export interface MixedReport {
  /** e.g. `no affinity, Redis session router`. */
  readonly label: string;
  readonly run: MixedRun;
  /** Flows per era asked for, and in flight at once. */
  readonly perEra: number;
  readonly active: number;
  /** 2025-era requests must be served through replicas other than their session's (no affinity). */
  readonly expectAway: boolean;
}

const ERAS: readonly Era[] = ['2025', '2026-07-28'];

/** Counts of one era's flows. */
export function eraCounts(results: readonly EraResult[], era: Era) {
  const of = results.filter((result) => result.era === era);
  const count = (status: EraResult['status']) => of.filter((result) => result.status === status).length;
  return {
    flows: of.length,
    completed: count('completed'),
    retried: of.filter((result) => result.retries > 0).length,
    recovered: of.filter((result) => result.recovered).length,
    failed: count('failed'),
    /** Failed after giving up on unclear failures: a clear error the client can retry. */
    failedRetryable: of.filter((result) => result.status === 'failed' && /^gave up/.test(result.reason ?? ''))
      .length,
    wrong: count('wrong'),
    lost: count('lost'),
  };
}

/** What makes a concurrent run fail; empty when it passed. */
export function mixedProblems(report: MixedReport): string[] {
  const problems: string[] = [];
  for (const era of ERAS) {
    const counts = eraCounts(report.run.results, era);
    const where = `${report.label}, ${era}`;
    if (counts.flows < report.perEra)
      problems.push(`${where}: only ${counts.flows} flows ran of ${report.perEra}`);
    if (counts.wrong > 0)
      problems.push(`${where}: wrong = ${counts.wrong}: a flow got data that was not its own`);
    if (counts.lost > 0) problems.push(`${where}: lost = ${counts.lost}: flows never ended`);
    const unclear = counts.failed - counts.failedRetryable;
    if (unclear > 0)
      problems.push(`${where}: ${unclear} flows failed with an error that is not a clear, retryable one`);
  }
  const { routing } = report.run;
  if (routing.openedOn.size < 2)
    problems.push(
      `${report.label}: every 2025-era session opened on one replica (initialize was not spread)`,
    );
  if (!report.expectAway && routing.awayFromOwner > 0)
    problems.push(
      `${report.label}: ${routing.awayFromOwner} 2025-era requests reached a replica other than their session's`,
    );
  if (report.expectAway && routing.awayServed === 0)
    problems.push(
      `${report.label}: no 2025-era request was served through a replica other than its session's`,
    );
  return problems;
}

/** The lines of the report for one concurrent run; `nameOf` names a replica by its address. */
export function formatMixed(report: MixedReport, nameOf: (address: string) => string = (a) => a): string[] {
  const { run } = report;
  const lines = [
    `both eras at once (${report.label}): ${report.perEra}+ flows per era, ${report.active} in flight ` +
      `(peak ${run.peakInFlight}); ${(run.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const era of ERAS) {
    const c = eraCounts(run.results, era);
    lines.push(
      `  ${era.padEnd(10)} flows ${String(c.flows).padStart(4)}: completed ${c.completed}, retried ${c.retried} ` +
        `(${c.recovered} found already booked), failed ${c.failed} (${c.failedRetryable} retryable), ` +
        `wrong ${c.wrong}, lost ${c.lost}`,
    );
  }
  const { routing } = run;
  lines.push(
    `  2025-era requests on a session: ${routing.sessionRequests}; reached another replica than the ` +
      `session's: ${routing.awayFromOwner}, of which served (passed to the session's replica): ${routing.awayServed}`,
  );
  lines.push(
    `  2025-era sessions opened per replica: ${[...routing.openedOn].map(([at, n]) => `${at} ${n}`).join(', ')}`,
  );
  for (const era of ERAS) {
    const reasons = new Map<string, number>();
    for (const result of run.results) {
      if (result.era !== era || result.retriedFor === undefined) continue;
      const reason = result.retriedFor.replace(/\d+/g, 'N').slice(0, 90);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 4);
    if (top.length > 0)
      lines.push(`  ${era} retried first for: ${top.map(([r, n]) => `${n}× ${r}`).join('; ')}`);
  }
  // How close flows came to giving up: the one that retried most in each era, and why each time.
  for (const era of ERAS) {
    const most = run.results
      .filter((result) => result.era === era && result.retries > 0)
      .sort((a, b) => b.retries - a.retries)[0];
    if (!most) continue;
    lines.push(
      `  ${era} most retries: flow ${most.id} (${most.kind}, ${most.user}), ${most.retries} (gives up after 8), ${most.status}:`,
    );
    for (const why of most.retriedAt ?? []) lines.push(`      ${why.replace(/\s+/g, ' ')}`);
  }
  // Every flow that did not complete, with its era, the step it was on, the replica and the error.
  const bad = run.results.filter((result) => result.status !== 'completed');
  for (const result of bad.slice(0, 20))
    lines.push(
      `    ${result.era} flow ${result.id} (${result.kind}, ${result.user}) ${result.status}` +
        `${placeText(result.at, nameOf)}: ${result.reason}`,
    );
  if (bad.length > 20) lines.push(`    … and ${bad.length - 20} more`);
  return lines;
}
