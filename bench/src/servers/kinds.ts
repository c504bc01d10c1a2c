/** The servers every workload compares: Parley, the raw official SDK, and the two node:http floors. */
export const SERVER_KINDS = ['parley', 'sdk', 'floor', 'json-floor'] as const;
/**
 * Parley with one feature on its round path, measured in (a) against Parley without it:
 * `parley-use` has one empty `server.use()` middleware, `parley-otel` has `telemetry()` installed
 * with no OpenTelemetry SDK or exporter registered (the API's no-op tracer and meter).
 */
export const FEATURE_KINDS = ['parley-use', 'parley-otel'] as const;
export type FeatureKind = (typeof FEATURE_KINDS)[number];
export type ServerKind = (typeof SERVER_KINDS)[number] | FeatureKind;
