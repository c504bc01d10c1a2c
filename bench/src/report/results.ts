import type { ClientCost, ClientKind } from '../clients/kinds.js';
import type { BenchConfig } from '../config.js';
import type { Machine } from '../machine.js';
import type { ServerKind } from '../servers/kinds.js';
import type { ServerLog } from '../servers/spawn.js';
import type { SourceVersion } from '../source-version.js';
import type { FeatureCosts } from '../workloads/feature-costs.js';
import type { FlowShape, LoadSummary, PerServer } from '../workloads/flows.js';
import type { GatewayFlows } from '../workloads/gateway-flows.js';
import type { HandshakeResult } from '../workloads/handshake.js';
import type { ModernMemory, PendingMemory } from '../workloads/memory.js';
import type { OneHost } from '../workloads/one-host.js';
import type { ParkedCalls } from '../workloads/parked-calls.js';
import type { PendingFloors } from '../workloads/pending-cost.js';
import type { ServerProfile } from '../workloads/profile.js';
import type { RendererFailure, RendererResult } from '../workloads/renderer.js';
import type { SessionMemory } from '../workloads/session-memory.js';
import type { CodecTiming } from '../workloads/state-codec.js';
import type { WireState } from '../workloads/state-wire.js';

/** (h): the gateway against the same upstream spoken to directly, and what a parked call costs. */
export interface GatewayResults {
  readonly shapes: readonly FlowShape[];
  readonly flows: GatewayFlows;
  readonly parked: ParkedCalls;
  /** The gateway's CPU profile under each pairing at concurrency 16 (`modern`: 2026-07-28 upstream). */
  readonly profiles?: { readonly modern?: ServerProfile; readonly handshake?: ServerProfile };
}

export interface ClientResults {
  readonly server: ServerKind;
  readonly questions: number;
  readonly costs: { [K in ClientKind]?: ClientCost };
}

/** One goal of the issue, checked against numbers from this run. */
export interface GoalCheck {
  readonly goal: string;
  readonly target: string;
  readonly measured: string;
  /** `undefined`: not measured in this run. */
  readonly met: boolean | undefined;
  /** How far from the target, or why it was not measured. */
  readonly note?: string;
}

/** Everything one `npm run bench` measured: the content of bench/results/latest.json. */
export interface BenchResults {
  readonly format: 1;
  readonly date: string;
  readonly machine: Machine & { readonly loadAverageAtEnd: number };
  /** The code measured. */
  readonly source?: SourceVersion;
  readonly config: BenchConfig;
  /** (a) and (b), keyed by flow shape (`q<questions>-c<concurrency>`). */
  readonly flows?: Record<string, PerServer<LoadSummary>>;
  readonly shapes?: readonly FlowShape[];
  /**
   * (a) what each feature on the round path costs, against plain Parley served by the same
   * processes (see workloads/feature-costs.ts). Absent in results from before it was measured this way.
   */
  readonly featureCosts?: FeatureCosts;
  /** (c) */
  readonly stateCodec?: readonly CodecTiming[];
  readonly wireState?: PerServer<WireState>;
  /** (d) */
  readonly handshake?: readonly HandshakeResult[];
  /** (e) */
  readonly clients?: ClientResults;
  /** (f) */
  readonly memory?: {
    readonly modern: PerServer<ModernMemory>;
    readonly pending: PendingMemory;
    /** Absent in results from before it was measured. */
    readonly sessions?: SessionMemory;
    /** The same, on the raw SDK serving its own sessions (the floor under Parley's); absent in older results. */
    readonly sdkSessions?: SessionMemory;
    /** What a pending 2025-era question costs beneath Parley; absent in results from before it was measured. */
    readonly floors?: PendingFloors;
    /** One 2025-era host with many calls on one session; absent in results from before it was measured. */
    readonly oneHost?: OneHost;
  };
  /** (g) */
  readonly renderer?: RendererResult | RendererFailure;
  /** (h); absent in results from before it was measured. */
  readonly gateway?: GatewayResults;
  readonly profiles?: PerServer<ServerProfile>;
  /** Servers that wrote to stderr during the run (normally none), with what they wrote first. */
  readonly serverLogs: readonly (ServerLog & { readonly server: string })[];
  readonly goals: readonly GoalCheck[];
}
