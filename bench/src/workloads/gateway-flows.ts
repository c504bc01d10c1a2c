/**
 * Workload (h), flows: `@parley/gateway` in front of the Parley survey server, against the same
 * server spoken to directly, in one run, interleaved run by run. A 2026-07-28 host (the bench's
 * bare loop) calls through a gateway that speaks 2026-07-28 to the upstream, and through one that
 * speaks 2025-11-25 to it (the upstream's call held open in the gateway while the host answers);
 * directly, the upstream is spoken to in the same era the gateway speaks to it: 2026-07-28 rounds,
 * or a 2025 session driven by hand (load/handshake-flow.ts). Beside them, the forwarding floor: plain
 * node:http passing each 2026-07-28 round's bytes on to the upstream and back, the least any HTTP
 * gateway does (servers/forward-floor.ts).
 */
import { handshakeDriver } from '../load/handshake-flow.js';
import { runLoad } from '../load/run-load.js';
import type { ServerProcess } from '../servers/spawn.js';
import { type FlowShape, type FlowTiming, interleave, type LoadSummary, shapeKey } from './flows.js';

/** Who is measured: the upstream spoken to directly in each era, and the gateway in front of it in that era. */
export const GATEWAY_TARGETS = [
  'direct-2026',
  'gateway-2026',
  'forward-2026',
  'direct-2025',
  'gateway-2025',
] as const;
export type GatewayTarget = (typeof GATEWAY_TARGETS)[number];

/** The processes (h) measures: the upstream, and a gateway in front of it for each era it is spoken to in. */
export interface GatewayServers {
  readonly upstream: ServerProcess;
  /** The gateway speaking 2026-07-28 to the upstream. */
  readonly modern: ServerProcess;
  /** The gateway speaking 2025-11-25 to the upstream. */
  readonly handshake: ServerProcess;
  /** The forwarding floor (node:http passing the bytes on) in front of the upstream, when measured. */
  readonly forward?: ServerProcess;
}

/** (h)'s flows, by shape key (`q1-c16`), then by target. */
export type GatewayFlows = Record<string, Partial<Record<GatewayTarget, LoadSummary>>>;

/** Measures each shape against the four targets; `progress` hears about each finished run. */
export async function measureGatewayFlows(
  servers: GatewayServers,
  shapes: readonly FlowShape[],
  timing: FlowTiming,
  progress: (line: string) => void,
): Promise<GatewayFlows> {
  const results: GatewayFlows = {};
  for (const shape of shapes) {
    const load = (server: ServerProcess) => (durationMs: number) => runLoad(server, { ...shape, durationMs });
    const targets = [
      { key: 'direct-2026' as const, run: load(servers.upstream) },
      { key: 'gateway-2026' as const, run: load(servers.modern) },
      ...(servers.forward ? [{ key: 'forward-2026' as const, run: load(servers.forward) }] : []),
      {
        key: 'direct-2025' as const,
        run: (durationMs: number) =>
          runLoad(
            servers.upstream,
            { ...shape, durationMs },
            handshakeDriver(servers.upstream.url, shape.concurrency),
          ),
      },
      { key: 'gateway-2025' as const, run: load(servers.handshake) },
    ];
    results[shapeKey(shape)] = await interleave(targets, timing, `(h) ${shapeKey(shape)}`, progress);
  }
  return results;
}
