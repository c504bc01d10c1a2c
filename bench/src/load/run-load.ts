import { createHistogram } from 'node:perf_hooks';
import type { StatsSource } from '../servers/side-channel-client.js';
import { cpuMicros } from '../servers/spawn.js';
import { IdSource, runFlow } from './flow.js';
import { KeepAlivePoster } from './http-post.js';

export interface LoadSpec {
  /** Questions per flow (a flow is questions + 1 requests). */
  readonly questions: number;
  /** Flows in flight at once, each on its own keep-alive connection. */
  readonly concurrency: number;
  /** How long new flows keep starting; flows in progress then run to completion. */
  readonly durationMs: number;
}

/** One measured run of a load spec against one server. */
export interface LoadRun {
  readonly flows: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly flowsPerSecond: number;
  readonly roundP50Ms: number;
  readonly roundP99Ms: number;
  /** Server CPU time (user + system) per flow and per round, in microseconds. */
  readonly cpuPerFlowUs: number;
  readonly cpuPerRoundUs: number;
  /** The longest `requestState` seen (after the last answered question but one), in characters. */
  readonly maxStateChars: number;
}

/**
 * Drives `spec.concurrency` back-to-back survey flows against a server for `spec.durationMs`, and
 * reads the server's own CPU time before and after.
 */
export async function runLoad(
  server: StatsSource & { readonly url: string },
  spec: LoadSpec,
): Promise<LoadRun> {
  const poster = new KeepAlivePoster(server.url, spec.concurrency);
  const ids = new IdSource();
  const rounds = createHistogram();
  let flows = 0;
  let maxStateChars = 0;
  try {
    const before = await server.stats();
    const started = process.hrtime.bigint();
    const deadline = Date.now() + spec.durationMs;
    const worker = async () => {
      while (Date.now() < deadline) {
        const flow = await runFlow(poster, spec.questions, ids);
        for (const ns of flow.roundNs) rounds.record(Math.max(1, Math.round(ns)));
        maxStateChars = Math.max(maxStateChars, ...flow.stateChars);
        flows++;
      }
    };
    await Promise.all(Array.from({ length: spec.concurrency }, worker));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = await server.stats();
    const cpu = cpuMicros(before, after);
    const roundCount = flows * (spec.questions + 1);
    return {
      flows,
      rounds: roundCount,
      seconds,
      flowsPerSecond: flows / seconds,
      roundP50Ms: rounds.percentile(50) / 1e6,
      roundP99Ms: rounds.percentile(99) / 1e6,
      cpuPerFlowUs: cpu / flows,
      cpuPerRoundUs: cpu / roundCount,
      maxStateChars,
    };
  } finally {
    poster.close();
  }
}
