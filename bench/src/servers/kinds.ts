/**
 * The servers every workload compares: Parley, the raw official SDK, the two node:http floors, and
 * the SDK floor (the JSON floor's answers, served through the official SDK's 2026-07-28 path).
 */
export const SERVER_KINDS = ['parley', 'sdk', 'floor', 'json-floor', 'sdk-floor'] as const;
/**
 * Parley with one feature on its round path, measured in (a) against Parley without it:
 * `parley-use` has one empty `server.use()` middleware, `parley-otel` has `telemetry()` installed
 * with no OpenTelemetry SDK or exporter registered (the API's no-op tracer and meter).
 */
export const FEATURE_KINDS = ['parley-use', 'parley-otel'] as const;
export type FeatureKind = (typeof FEATURE_KINDS)[number];
/**
 * One process serving plain Parley and each feature kind, each on its own port, for (a)'s feature
 * costs: the variants take turns under the same load in the same process, so the 5–10% by which two
 * processes of the same code can differ does not fall on one side of the comparison.
 */
export const FEATURE_HOST = 'parley-features' as const;
/** Servers only (f) reads: the raw SDK holding 2025-era HTTP sessions itself (sdk-sessions.ts). */
export const MEMORY_KINDS = ['sdk-sessions'] as const;
/**
 * `@parley/gateway` in front of a survey server (`BENCH_UPSTREAM_URL`, spoken to in
 * `BENCH_UPSTREAM_ERA`), for (h): the gateway's flows against the same upstream spoken to directly.
 */
export const GATEWAY_KIND = 'gateway' as const;
/**
 * The official SDK client alone, holding 2025 sessions to a survey server (`BENCH_UPSTREAM_URL`)
 * as the gateway holds them, each with a call waiting on its question: the floor under a parked
 * call in (h). `BENCH_NO_GET_STREAM=1`: without the standalone GET stream.
 */
export const CLIENT_FLOOR_KIND = 'client-floor' as const;
/**
 * node:http passing each request's bytes on to a survey server (`BENCH_UPSTREAM_URL`) and its
 * answer back: the forwarding floor under the gateway in (h).
 */
export const FORWARD_FLOOR_KIND = 'forward-floor' as const;
export type ServerKind =
  | (typeof SERVER_KINDS)[number]
  | FeatureKind
  | typeof FEATURE_HOST
  | (typeof MEMORY_KINDS)[number]
  | typeof GATEWAY_KIND
  | typeof CLIENT_FLOOR_KIND
  | typeof FORWARD_FLOOR_KIND;
