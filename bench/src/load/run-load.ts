import { createHistogram } from 'node:perf_hooks';
import type { StatsSource } from '../servers/side-channel-client.js';
import { cpuMicros } from '../servers/spawn.js';
import { type FlowRecord, IdSource, runFlow } from './flow.js';
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

/** How a load's flows are driven: one flow runner per worker (each flow in flight), made before the clock starts. */
export interface FlowDriver {
  worker(): Promise<(questions: number) => Promise<FlowRecord>>;
  close(): Promise<void>;
}

/** The 2026-07-28 driver: hand-built requests over one keep-alive connection per flow in flight. */
export function modernDriver(url: string, concurrency: number): FlowDriver {
  const poster = new KeepAlivePoster(url, concurrency);
  const ids = new IdSource();
  return {
    worker: async () => (questions) => runFlow(poster, questions, ids),
    close: async () => poster.close(),
  };
}

/**
 * Drives `spec.concurrency` back-to-back survey flows against a server for `spec.durationMs`, and
 * reads the server's own CPU time before and after. The flows are 2026-07-28 rounds unless another
 * `driver` is given (the 2025 handshake driver of handshake-flow.ts).
 */
export async function runLoad(
  server: StatsSource & { readonly url: string },
  spec: LoadSpec,
  driver: FlowDriver = modernDriver(server.url, spec.concurrency),
): Promise<LoadRun> {
  const rounds = createHistogram();
  let flows = 0;
  let maxStateChars = 0;
  try {
    const workers = await Promise.all(Array.from({ length: spec.concurrency }, () => driver.worker()));
    const before = await server.stats();
    const started = process.hrtime.bigint();
    const deadline = Date.now() + spec.durationMs;
    const worker = async (flow: (questions: number) => Promise<FlowRecord>) => {
      while (Date.now() < deadline) {
        const record = await flow(spec.questions);
        for (const ns of record.roundNs) rounds.record(Math.max(1, Math.round(ns)));
        maxStateChars = Math.max(maxStateChars, ...record.stateChars);
        flows++;
      }
    };
    await Promise.all(workers.map(worker));
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
    await driver.close();
  }
}
