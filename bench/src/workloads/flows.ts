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

/** Measures each shape against every server; `progress` hears about each finished run. */
export async function measureFlows(
  servers: readonly ServerProcess[],
  shapes: readonly FlowShape[],
  timing: FlowTiming,
  progress: (line: string) => void,
): Promise<Record<string, PerServer<LoadSummary>>> {
  const results: Record<string, PerServer<LoadSummary>> = {};
  for (const shape of shapes) {
    for (const server of servers) await runLoad(server, { ...shape, durationMs: timing.warmupMs });
    const runs = new Map<ServerKind, LoadRun[]>(servers.map((server) => [server.kind, []]));
    for (let r = 0; r < timing.runs; r++) {
      for (let i = 0; i < servers.length; i++) {
        const server = servers[(i + r) % servers.length]!;
        const run = await runLoad(server, { ...shape, durationMs: timing.runMs });
        runs.get(server.kind)!.push(run);
        progress(
          `  ${shapeKey(shape)} run ${r + 1}/${timing.runs} ${server.kind}: ${run.flowsPerSecond.toFixed(0)} flows/s`,
        );
      }
    }
    const summaries: PerServer<LoadSummary> = {};
    for (const [kind, list] of runs) summaries[kind] = summarize(list);
    results[shapeKey(shape)] = summaries;
  }
  return results;
}
