import { parseArgs } from 'node:util';

export const WORKLOADS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** How long and how much each workload runs. */
export interface BenchConfig {
  readonly quick: boolean;
  readonly workloads: readonly Workload[];
  /** (a), (b), (h): measured runs per server (the median is reported), each `runMs` long, after `warmupMs`. */
  readonly runs: number;
  readonly runMs: number;
  readonly warmupMs: number;
  /** (a) feature costs: server processes one after another, each serving plain Parley and every feature. */
  readonly featureProcesses: number;
  /** (a) feature costs: runs of each variant in each process, and each variant's warm-up in each new process. */
  readonly featureRuns: number;
  readonly featureRunMs: number;
  readonly featureWarmupMs: number;
  /** (c): flows timed per repeat of the in-process codec harness. */
  readonly codecIterations: number;
  /** (d): measuring time per server and transport. */
  readonly handshakeMs: number;
  /** (e): measuring time per client library, after this many warm-up flows. */
  readonly clientMs: number;
  readonly clientWarmupFlows: number;
  /** (f): modern flows held in flight at once. */
  readonly flowsInFlight: number;
  /** (f): 2025-era sessions, and questions pending in each. */
  readonly pendingSessions: number;
  readonly pendingPerSession: number;
  /** (f): calls one 2025-era host keeps in flight on one session, each with a question pending. */
  readonly hostCalls: number;
  /** (f): the server's question timeout while questions are held. */
  readonly questionTimeoutMs: number;
  /** (f): how long a dropped 2025-era call waits for its client to reconnect (Parley's `resumeGraceMs`). */
  readonly resumeGraceMs: number;
  /** (g): renders of the 20-field form timed (the median is reported). */
  readonly rendererRuns: number;
  /**
   * (h): calls parked in the gateway at once beyond its warm-up ones (a 2025 upstream's call held
   * while a 2026-07-28 host answers; the gateway holds at most 1,000 for anonymous hosts).
   */
  readonly parkedCalls: number;
  /** CPU profile of (a) at concurrency 16: how long, or 0 for none. */
  readonly profileMs: number;
}

const FULL = {
  runs: 5,
  runMs: 5000,
  warmupMs: 2000,
  featureProcesses: 9,
  featureRuns: 2,
  featureRunMs: 3000,
  featureWarmupMs: 4000,
  codecIterations: 500,
  handshakeMs: 4000,
  clientMs: 4000,
  clientWarmupFlows: 20,
  flowsInFlight: 10_000,
  pendingSessions: 10,
  pendingPerSession: 100,
  hostCalls: 1000,
  questionTimeoutMs: 15_000,
  resumeGraceMs: 5000,
  rendererRuns: 50,
  parkedCalls: 900,
  profileMs: 6000,
};

const QUICK: typeof FULL = {
  runs: 3,
  runMs: 400,
  warmupMs: 250,
  featureProcesses: 1,
  featureRuns: 2,
  featureRunMs: 400,
  featureWarmupMs: 250,
  codecIterations: 100,
  handshakeMs: 500,
  clientMs: 500,
  clientWarmupFlows: 5,
  flowsInFlight: 1000,
  pendingSessions: 2,
  pendingPerSession: 100,
  hostCalls: 200,
  questionTimeoutMs: 3000,
  resumeGraceMs: 500,
  rendererRuns: 15,
  parkedCalls: 200,
  profileMs: 1000,
};

export const USAGE = `Usage: npm run bench -- [--quick] [--only a,b,...] [--runs N] [--seconds S] [--no-profile]

  --quick        shorter runs and smaller counts (under a minute)
  --only         workloads to run, of ${WORKLOADS.join(', ')} (default: all; h is the gateway)
  --runs N       measured runs per server for (a), (b) and (h) (default ${FULL.runs}; quick ${QUICK.runs})
  --seconds S    length of each run (default ${FULL.runMs / 1000}; quick ${QUICK.runMs / 1000})
  --no-profile   skip the CPU profiles of (a) at concurrency 16
  --help         this text`;

/** Reads the command line; `undefined` with a message when it cannot be understood. */
export function parseConfig(argv: readonly string[]): { config: BenchConfig } | { problem: string } {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  const base = values.quick ? QUICK : FULL;
  const workloads = values.only ? values.only.split(',').map((name) => name.trim()) : [...WORKLOADS];
  const unknown = workloads.filter((name) => !(WORKLOADS as readonly string[]).includes(name));
  if (unknown.length > 0)
    return { problem: `Unknown workload ${unknown.join(', ')}; pick from ${WORKLOADS.join(', ')}.` };
  const runs = values.runs === undefined ? base.runs : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    return { problem: `--runs must be a whole number ≥ 1 (got ${values.runs}).` };
  const seconds = values.seconds === undefined ? base.runMs / 1000 : Number(values.seconds);
  if (!(seconds > 0)) return { problem: `--seconds must be a positive number (got ${values.seconds}).` };
  return {
    config: {
      ...base,
      quick: values.quick ?? false,
      workloads: workloads as Workload[],
      runs,
      runMs: Math.round(seconds * 1000),
      profileMs: values['no-profile'] ? 0 : base.profileMs,
    },
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      runs: { type: 'string' },
      seconds: { type: 'string' },
      'no-profile': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
}
