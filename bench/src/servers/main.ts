/**
 * A benchmark server as its own process, so its CPU time and memory are its own:
 *
 *   node bench/dist/servers/main.js <parley|sdk|floor|json-floor|sdk-floor|parley-use|parley-otel> [http|stdio]
 *   node bench/dist/servers/main.js parley-features
 *   node bench/dist/servers/main.js sdk-push stdio
 *   node bench/dist/servers/main.js sdk-sessions
 *   BENCH_UPSTREAM_URL=<survey server> BENCH_UPSTREAM_ERA=<revision> node bench/dist/servers/main.js gateway
 *   BENCH_UPSTREAM_URL=<survey server> [BENCH_NO_GET_STREAM=1] node bench/dist/servers/main.js client-floor
 *
 * Over HTTP it prints one JSON line `{"url": ...}` once it listens; over stdio it speaks MCP on
 * stdin/stdout (and with `BENCH_SIDE_CHANNEL=1` opens its side channel on loopback and prints
 * `{"sideChannel": ...}` on stderr). `sdk-push` is the raw SDK's 2025-style survey (sdk-push.ts).
 * `parley-features` serves plain Parley and each feature kind in one process, one port each, and
 * prints `{"url": <plain Parley>, "variants": {"parley": ..., "parley-use": ..., ...}}`.
 * SIGTERM closes it cleanly (so `--cpu-prof` can write its profile).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { listenClientFloor } from './client-floor.js';
import { listenFloor } from './floor.js';
import { listenForwardFloor } from './forward-floor.js';
import { gatewayOptionsFromEnv, listenGateway } from './gateway.js';
import { listenJsonFloor } from './json-floor.js';
import {
  CLIENT_FLOOR_KIND,
  FEATURE_HOST,
  FEATURE_KINDS,
  type FeatureKind,
  FORWARD_FLOOR_KIND,
  GATEWAY_KIND,
  MEMORY_KINDS,
  SERVER_KINDS,
} from './kinds.js';
import type { RunningHttp } from './loopback.js';
import { listenParley, type ParleyBenchOptions, parleySurveyServer } from './parley.js';
import { listenSdk, sdkSurveyServer } from './sdk.js';
import { listenSdkFloor } from './sdk-floor.js';
import { sdkPushSurveyServer } from './sdk-push.js';
import { listenSdkSessions } from './sdk-sessions.js';
import { announceSideChannel } from './stdio-side-channel.js';

const [kind, transport = 'http'] = process.argv.slice(2);
/** The feature each feature kind adds to Parley. */
const FEATURE_OF: Record<FeatureKind, NonNullable<ParleyBenchOptions['feature']>> = {
  'parley-use': 'use',
  'parley-otel': 'otel',
};
const isFeatureKind = (name: string | undefined): name is FeatureKind =>
  (FEATURE_KINDS as readonly (string | undefined)[]).includes(name);
const timeout = Number(process.env.BENCH_QUESTION_TIMEOUT_MS);
const grace = Number(process.env.BENCH_RESUME_GRACE_MS);
const sessions = Number(process.env.BENCH_MAX_SESSIONS);
const parleyOptions = {
  ...(Number.isFinite(timeout) && timeout > 0 && { questionTimeoutMs: timeout }),
  ...(process.env.BENCH_RESUME_GRACE_MS && Number.isFinite(grace) && { resumeGraceMs: grace }),
  ...(Number.isInteger(sessions) && sessions > 0 && { maxSessions: sessions }),
};

async function start(): Promise<() => Promise<unknown>> {
  if (transport === 'stdio') {
    const closeSide = process.env.BENCH_SIDE_CHANNEL === '1' ? await announceSideChannel() : undefined;
    const handle =
      kind === 'parley'
        ? parleySurveyServer(parleyOptions).stdio()
        : kind === 'sdk'
          ? serveStdio(() => sdkSurveyServer())
          : kind === 'sdk-push'
            ? serveStdio(() => sdkPushSurveyServer())
            : undefined;
    if (!handle) throw new Error(`No stdio server for '${kind}'; use parley, sdk or sdk-push.`);
    return () => Promise.all([handle.close(), closeSide?.()]);
  }
  if (kind === FEATURE_HOST) return listenFeatureVariants();
  const listen: Partial<Record<string, () => Promise<RunningHttp>>> = {
    parley: () => listenParley(parleyOptions),
    sdk: listenSdk,
    floor: listenFloor,
    'json-floor': listenJsonFloor,
    'sdk-floor': listenSdkFloor,
    'sdk-sessions': listenSdkSessions,
    [GATEWAY_KIND]: () => listenGateway(gatewayOptionsFromEnv(process.env)),
    [FORWARD_FLOOR_KIND]: () => listenForwardFloor(gatewayOptionsFromEnv(process.env).upstreamUrl),
    [CLIENT_FLOOR_KIND]: () =>
      listenClientFloor({
        upstreamUrl: gatewayOptionsFromEnv(process.env).upstreamUrl,
        noGetStream: process.env.BENCH_NO_GET_STREAM === '1',
      }),
  };
  const listening = isFeatureKind(kind)
    ? await listenParley({ ...parleyOptions, feature: FEATURE_OF[kind] })
    : kind !== undefined && Object.hasOwn(listen, kind)
      ? await listen[kind]!()
      : undefined;
  if (!listening)
    throw new Error(
      `Unknown server kind '${kind}'; use one of ${[...SERVER_KINDS, ...FEATURE_KINDS, FEATURE_HOST, ...MEMORY_KINDS, GATEWAY_KIND, CLIENT_FLOOR_KIND, FORWARD_FLOOR_KIND].join(', ')}.`,
    );
  process.stdout.write(`${JSON.stringify({ url: listening.url })}\n`);
  return () => listening.close();
}

/** Plain Parley and each feature kind, listening in this one process. */
async function listenFeatureVariants(): Promise<() => Promise<unknown>> {
  const plain = await listenParley(parleyOptions);
  const variants: Record<string, string> = { parley: plain.url };
  const all = [plain];
  for (const kind of FEATURE_KINDS) {
    const listening = await listenParley({ ...parleyOptions, feature: FEATURE_OF[kind] });
    variants[kind] = listening.url;
    all.push(listening);
  }
  process.stdout.write(`${JSON.stringify({ url: plain.url, variants })}\n`);
  return () => Promise.all(all.map((listening) => listening.close()));
}

const close = await start();
const stop = () => {
  void close()
    .catch(() => {})
    .finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
