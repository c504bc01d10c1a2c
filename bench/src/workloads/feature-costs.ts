import { type LoadRun, runLoad } from '../load/run-load.js';
import { FEATURE_KINDS, type FeatureKind } from '../servers/kinds.js';
import type { ServerProcess } from '../servers/spawn.js';
import { median } from '../stats.js';
import { type FlowShape, type LoadSummary, type PerServer, summarize } from './flows.js';

/** How (a)'s feature costs are measured: processes one after another, runs in each. */
export interface FeatureCostTiming {
  /** Server processes started one after another, each serving every variant. */
  readonly processes: number;
  /** Runs of each variant in each process, the variants taking turns. */
  readonly runs: number;
  readonly runMs: number;
  /** Each variant's warm-up in each new process, before its first measured run. */
  readonly warmupMs: number;
}

/** What one feature costs against plain Parley served by the same process. */
export interface FeatureCost {
  /**
   * Server CPU per round with the feature over without it, minus one, in percent: the median over
   * the processes of each process's median pair. A whole process can run one variant slower
   * throughout (seen: one process in ten reading +17% where the others read −2% to +6%), so the figure is
   * a median of processes, not of pairs.
   */
  readonly cpuPct: number;
  /** One minus flows/s with the feature over without it, in percent, taken the same way. */
  readonly flowsPct: number;
  /** The CPU figure of each process alone, to show the spread between processes. */
  readonly cpuPctByProcess: readonly number[];
  /** Runs of the feature, each paired with plain Parley's run of the same turn in the same process. */
  readonly pairs: number;
}

export interface FeatureCosts {
  readonly shape: FlowShape;
  readonly timing: FeatureCostTiming;
  /** Each variant's medians over all its runs (plain Parley as `parley`). */
  readonly servers: PerServer<LoadSummary>;
  readonly costs: Partial<Record<FeatureKind, FeatureCost>>;
}

/** Every run of one process, by variant, in the order of its turns. */
export type ProcessRuns = Readonly<Partial<Record<'parley' | FeatureKind, readonly LoadRun[]>>>;

const VARIANTS = ['parley', ...FEATURE_KINDS] as const;

/**
 * Measures what each feature costs: `timing.processes` processes of the `parley-features` server
 * (see servers/main.ts) one after another, each serving plain Parley and every feature kind on its
 * own port. In each process the variants take turns under the same load (forwards, then backwards,
 * so none always runs first), and each feature's run is compared with plain Parley's run of the
 * same turn. Two processes of the same code can differ by 5–10% on a small machine; both sides of
 * every pair here share one process, so that luck cancels, and a few processes cover the rest.
 */
export async function measureFeatureCosts(
  start: () => Promise<ServerProcess>,
  shape: FlowShape,
  timing: FeatureCostTiming,
  progress: (line: string) => void,
): Promise<FeatureCosts> {
  const byProcess: ProcessRuns[] = [];
  for (let p = 0; p < timing.processes; p++) {
    const server = await start();
    try {
      const target = (kind: (typeof VARIANTS)[number]) => {
        const url = server.variants[kind];
        if (!url)
          throw new Error(
            `The feature host serves no '${kind}' (it printed ${JSON.stringify(server.variants)}).`,
          );
        return { url, stats: () => server.stats() };
      };
      for (const kind of VARIANTS) await runLoad(target(kind), { ...shape, durationMs: timing.warmupMs });
      const runs: Record<string, LoadRun[]> = Object.fromEntries(VARIANTS.map((kind) => [kind, []]));
      for (let r = 0; r < timing.runs; r++) {
        const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
        for (const kind of order) {
          const run = await runLoad(target(kind), { ...shape, durationMs: timing.runMs });
          runs[kind]!.push(run);
          progress(
            `  process ${p + 1}/${timing.processes} turn ${r + 1}/${timing.runs} ${kind}: ` +
              `${run.flowsPerSecond.toFixed(0)} flows/s, ${run.cpuPerRoundUs.toFixed(0)} µs CPU per round`,
          );
        }
      }
      byProcess.push(runs);
    } finally {
      await server.stop();
    }
  }
  return { shape, timing, ...featureCostsOf(byProcess) };
}

/** Each feature's cost from every process's runs, pairing each run with plain Parley's of the same turn. */
export function featureCostsOf(byProcess: readonly ProcessRuns[]): Pick<FeatureCosts, 'servers' | 'costs'> {
  const servers: PerServer<LoadSummary> = {};
  for (const kind of VARIANTS) {
    const all = byProcess.flatMap((runs) => runs[kind] ?? []);
    if (all.length > 0) servers[kind] = summarize(all);
  }
  const costs: Partial<Record<FeatureKind, FeatureCost>> = {};
  for (const kind of FEATURE_KINDS) {
    const cpuPctByProcess: number[] = [];
    const flowsByProcess: number[] = [];
    let pairs = 0;
    for (const runs of byProcess) {
      const plain = runs.parley ?? [];
      const feature = runs[kind] ?? [];
      const count = Math.min(plain.length, feature.length);
      if (count === 0) continue;
      const cpu: number[] = [];
      const flows: number[] = [];
      for (let i = 0; i < count; i++) {
        cpu.push(feature[i]!.cpuPerRoundUs / plain[i]!.cpuPerRoundUs);
        flows.push(feature[i]!.flowsPerSecond / plain[i]!.flowsPerSecond);
      }
      pairs += count;
      cpuPctByProcess.push(100 * (median(cpu) - 1));
      flowsByProcess.push(median(flows));
    }
    if (pairs === 0) continue;
    costs[kind] = {
      cpuPct: median(cpuPctByProcess),
      flowsPct: 100 * (1 - median(flowsByProcess)),
      cpuPctByProcess,
      pairs,
    };
  }
  return { servers, costs };
}
