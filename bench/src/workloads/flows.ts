/**
 * Workloads (a) and (b): survey flows over loopback HTTP against every server, interleaved run by
 * run (server order rotating) so drift in the machine's load falls on all of them alike.
 */
import { type LoadRun, type LoadSpec, runLoad } from '../load/run-load.js';
import type { ServerKind } from '../servers/kinds.js';
import type { ServerProcess } from '../servers/spawn.js';
import { median } from '../stats.js';

/** Medians over the measured runs of one spec against one server, and the runs themselves. */
export interface LoadSummary {
  readonly flowsPerSecond: number;
  readonly roundP50Ms: number;
  readonly roundP99Ms: number;
  readonly cpuPerFlowUs: number;
  readonly cpuPerRoundUs: number;
  readonly runs: readonly LoadRun[];
}

export type PerServer<T> = { [K in ServerKind]?: T };

/** A flow shape: questions per flow and flows in flight. */
export type FlowShape = Omit<LoadSpec, 'durationMs'>;

export const shapeKey = (shape: FlowShape): string => `q${shape.questions}-c${shape.concurrency}`;

/** The medians of a server's runs. */
export function summarize(runs: readonly LoadRun[]): LoadSummary {
  const of = (pick: (run: LoadRun) => number) => median(runs.map(pick));
  return {
    flowsPerSecond: of((run) => run.flowsPerSecond),
    roundP50Ms: of((run) => run.roundP50Ms),
    roundP99Ms: of((run) => run.roundP99Ms),
    cpuPerFlowUs: of((run) => run.cpuPerFlowUs),
    cpuPerRoundUs: of((run) => run.cpuPerRoundUs),
    runs,
  };
}

export interface FlowTiming {
  readonly runs: number;
  readonly runMs: number;
  readonly warmupMs: number;
}

/** One thing measured under load: a label for progress, and how to run it once for `durationMs`. */
export interface LoadTarget<K extends string> {
  readonly key: K;
  run(durationMs: number): Promise<LoadRun>;
}

/**
 * Warms every target up, then runs each `timing.runs` times, interleaved with a rotating order so
 * drift in the machine's load falls on all of them alike, and summarizes each one's runs.
 */
export async function interleave<K extends string>(
  targets: readonly LoadTarget<K>[],
  timing: FlowTiming,
  label: string,
  progress: (line: string) => void,
): Promise<Partial<Record<K, LoadSummary>>> {
  for (const target of targets) await target.run(timing.warmupMs);
  const runs = new Map<K, LoadRun[]>(targets.map((target) => [target.key, []]));
  for (let r = 0; r < timing.runs; r++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + r) % targets.length]!;
      const run = await target.run(timing.runMs);
      runs.get(target.key)!.push(run);
      progress(
        `  ${label} run ${r + 1}/${timing.runs} ${target.key}: ${run.flowsPerSecond.toFixed(0)} flows/s`,
      );
    }
  }
  const summaries: Partial<Record<K, LoadSummary>> = {};
  for (const [key, list] of runs) summaries[key] = summarize(list);
  return summaries;
}

/** Measures each shape against every server; `progress` hears about each finished run. */
export async function measureFlows(
  servers: readonly ServerProcess[],
  shapes: readonly FlowShape[],
  timing: FlowTiming,
  progress: (line: string) => void,
): Promise<Record<string, PerServer<LoadSummary>>> {
  const results: Record<string, PerServer<LoadSummary>> = {};
  for (const shape of shapes) {
    const targets = servers.map((server) => ({
      key: server.kind,
      run: (durationMs: number) => runLoad(server, { ...shape, durationMs }),
    }));
    results[shapeKey(shape)] = await interleave(targets, timing, shapeKey(shape), progress);
  }
  return results;
}
