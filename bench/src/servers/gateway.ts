import { createGateway, type Gateway, type UpstreamEra } from '@parley/gateway';
import { telemetry } from '@parley/server/otel';
import { BENCH_KEY_BASE64 } from './bench-key.js';
import type { RunningHttp } from './loopback.js';
import { countRunningWith, sideChannel, watchConnections } from './side-channel.js';

/** The upstream name the bench's gateway knows its one upstream by (one upstream: tool names pass unchanged). */
export const GATEWAY_UPSTREAM = 'survey';

export interface GatewayBenchOptions {
  /** The survey server behind the gateway. */
  readonly upstreamUrl: string;
  /** The era the gateway speaks to it. */
  readonly era: Exclude<UpstreamEra, 'auto'>;
  /** `telemetry()` on the gateway's server, with no OpenTelemetry SDK registered (the API's no-op tracer and meter). */
  readonly telemetry?: boolean;
}

/** A running bench gateway: its listener, and the gateway (for tests to read its status). */
export interface RunningGateway extends RunningHttp {
  readonly gateway: Gateway;
  /** Audit events the gateway emitted (one per question that crossed). */
  readonly audited: () => number;
}

/**
 * `@parley/gateway` in front of one survey server, as `parley gateway` would run it with the
 * configuration `{ upstreams: { survey: { url, era } } }`, plus the bench side channel. Its audit
 * events are built as always but handed to a counter instead of a log line (the bench reads no
 * server's logs); warnings and errors still go to stderr, where the run reports them. The state
 * key is configured, as on any real deployment.
 */
export async function listenGateway(options: GatewayBenchOptions): Promise<RunningGateway> {
  let audited = 0;
  const gateway = createGateway(
    { upstreams: { [GATEWAY_UPSTREAM]: { url: options.upstreamUrl, era: options.era } } },
    {
      onAudit: () => {
        audited++;
      },
      log: (level, message) => {
        if (level === 'warn' || level === 'error') process.stderr.write(`${level} ${message}\n`);
      },
      server: { state: { keys: `bench:${BENCH_KEY_BASE64}` } },
    },
  );
  if (options.telemetry) gateway.server.use(telemetry());
  // The 2025 upstream calls the gateway holds open for its 2026-07-28 hosts count as its running handlers.
  countRunningWith(() => gateway.status().heldCalls);
  const listening = await gateway.listen({
    port: 0,
    routes: async (request) => {
      const answer = sideChannel(new URL(request.url));
      return answer && new Response(await answer, { headers: { 'content-type': 'application/json' } });
    },
  });
  watchConnections(listening.http);
  return {
    url: listening.url,
    http: listening.http,
    gateway,
    audited: () => audited,
    close: async () => {
      await gateway.close();
      await listening.close();
    },
  };
}

/** The gateway's upstream from the environment of `servers/main.js gateway` (`BENCH_GATEWAY_TELEMETRY=1`: with `telemetry()`). */
export function gatewayOptionsFromEnv(env: NodeJS.ProcessEnv): GatewayBenchOptions {
  const upstreamUrl = env.BENCH_UPSTREAM_URL;
  const era = env.BENCH_UPSTREAM_ERA ?? '2026-07-28';
  if (!upstreamUrl)
    throw new Error('The gateway server needs BENCH_UPSTREAM_URL (the survey server it fronts).');
  if (era !== '2026-07-28' && era !== '2025-11-25' && era !== '2025-06-18')
    throw new Error(`BENCH_UPSTREAM_ERA must be 2026-07-28, 2025-11-25 or 2025-06-18 (got ${era}).`);
  return { upstreamUrl, era, telemetry: env.BENCH_GATEWAY_TELEMETRY === '1' };
}
