/**
 * `npm run bench`: runs every workload against Parley, the raw official SDK and a bare node:http
 * floor in one run, prints the tables (markdown, on stdout) and writes bench/results/latest.json
 * and latest.md. Progress goes to stderr. See bench/README.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CLIENT_KINDS } from './clients/kinds.js';
import { type BenchConfig, parseConfig, USAGE } from './config.js';
import { describeMachine } from './machine.js';
import { checkGoals } from './report/goals.js';
import { renderMarkdown } from './report/markdown.js';
import type { BenchResults, ClientResults } from './report/results.js';
import {
  CLIENT_FLOOR_KIND,
  FEATURE_HOST,
  FEATURE_KINDS,
  FORWARD_FLOOR_KIND,
  GATEWAY_KIND,
  SERVER_KINDS,
  type ServerKind,
} from './servers/kinds.js';
import { ServerProcess } from './servers/spawn.js';
import { sourceVersion } from './source-version.js';
import { measureClient } from './workloads/client-driver.js';
import { measureFeatureCosts } from './workloads/feature-costs.js';
import { type FlowShape, measureFlows, type PerServer } from './workloads/flows.js';
import { measureGatewayFlows } from './workloads/gateway-flows.js';
import { type HandshakeResult, measureHandshake } from './workloads/handshake.js';
import { measureModernMemory, measurePendingMemory } from './workloads/memory.js';
import { measureOneHost } from './workloads/one-host.js';
import { measureClientFloor, measureParkedCalls, measurePendingHeap } from './workloads/parked-calls.js';
import { measureHeldResponses, measureStdioPending, WARMUP_HELD } from './workloads/pending-floors.js';
import { profileServer, type ServerProfile } from './workloads/profile.js';
import { measureFormRenderer } from './workloads/renderer.js';
import { measureSessionMemory } from './workloads/session-memory.js';
import { measureStateCodecs } from './workloads/state-codec.js';
import { measureWireState, type WireState } from './workloads/state-wire.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
const started = Date.now();
const progress = (line: string) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Every server process the run starts, so each is stopped and its stderr reported. */
class Servers {
  readonly #started: { label: string; server: ServerProcess }[] = [];

  async start(kind: ServerKind, label: string, env?: Record<string, string>): Promise<ServerProcess> {
    const server = await ServerProcess.start(kind, env ? { env } : {});
    this.#started.push({ label, server });
    return server;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.#started.map(({ server }) => server.stop()));
  }

  logs(): BenchResults['serverLogs'] {
    return this.#started
      .map(({ label, server }) => ({ server: label, ...server.log }))
      .filter((log) => log.lines > 0);
  }
}

/** Where (a) weighs each feature's cost: the one-question flow at concurrency 16, as the goals read (a). */
const FEATURE_SHAPE: FlowShape = { questions: 1, concurrency: 16 };

/** Questions per flow in (e), so each flow has several rounds for the client to drive. */
const CLIENT_QUESTIONS = 5;

/** (h)'s shapes: one question, one flow at a time and 16 at once, as (a). */
const GATEWAY_SHAPES: readonly FlowShape[] = [
  { questions: 1, concurrency: 1 },
  { questions: 1, concurrency: 16 },
];

/** A survey upstream for (h) that takes a thousand 2025 sessions from the load generator's address, and waits long. */
const PATIENT_UPSTREAM = { BENCH_MAX_SESSIONS: '2000', BENCH_QUESTION_TIMEOUT_MS: '600000' };

function flowShapes(config: BenchConfig): FlowShape[] {
  const shapes: FlowShape[] = [];
  if (config.workloads.includes('a')) shapes.push({ questions: 1, concurrency: 1 });
  shapes.push({ questions: 1, concurrency: 16 });
  if (config.workloads.includes('b'))
    shapes.push({ questions: 5, concurrency: 16 }, { questions: 20, concurrency: 16 });
  return shapes;
}

async function run(config: BenchConfig): Promise<BenchResults> {
  const machine = describeMachine();
  const source = sourceVersion(REPO_ROOT);
  const servers = new Servers();
  const has = (workload: BenchConfig['workloads'][number]) => config.workloads.includes(workload);
  const date = new Date().toISOString();
  const measured: { -readonly [K in keyof BenchResults]?: BenchResults[K] } = {};
  try {
    const http = {} as Record<ServerKind, ServerProcess>;
    // (f), (g) and (h) start servers of their own.
    if (has('a') || has('b') || has('c') || has('d') || has('e')) {
      progress(`Starting servers: ${SERVER_KINDS.join(', ')}`);
      for (const kind of SERVER_KINDS) http[kind] = await servers.start(kind, `${kind} (HTTP)`);
    }
    const all = SERVER_KINDS.map((kind) => http[kind]);

    if (has('a') || has('b')) {
      progress('(a)(b) survey flows');
      measured.shapes = flowShapes(config);
      measured.flows = await measureFlows(all, measured.shapes, config, progress);
    }

    if (has('a')) {
      progress(`(a) feature costs: parley against ${FEATURE_KINDS.join(', ')}, in the same processes`);
      measured.featureCosts = await measureFeatureCosts(
        () => servers.start(FEATURE_HOST, 'parley and each feature, for feature costs (HTTP)'),
        FEATURE_SHAPE,
        {
          processes: config.featureProcesses,
          runs: config.featureRuns,
          runMs: config.featureRunMs,
          warmupMs: config.featureWarmupMs,
        },
        progress,
      );
    }

    if (has('c')) {
      progress('(c) state: seal + open in process, size on the wire');
      measured.stateCodec = await measureStateCodecs({
        flows: [1, 5, 20],
        iterations: config.codecIterations,
        repeats: config.runs,
      });
      const wire: PerServer<WireState> = {};
      for (const server of all) wire[server.kind] = await measureWireState(server);
      measured.wireState = wire;
    }

    if (has('d')) {
      progress('(d) handshake era');
      const options = { questions: 5, durationMs: config.handshakeMs, callTimeoutMs: 10_000 };
      const rows: HandshakeResult[] = [];
      for (const kind of ['parley', 'sdk'] as const) {
        rows.push(await measureHandshake(kind, 'stdio', options));
        rows.push(await measureHandshake(kind, 'http', options, http[kind]));
      }
      measured.handshake = rows;
    }

    if (has('e')) {
      progress('(e) client driver overhead');
      const costs: ClientResults['costs'] = {};
      for (const kind of CLIENT_KINDS) {
        costs[kind] = await measureClient(
          kind,
          http.parley.url,
          CLIENT_QUESTIONS,
          config.clientMs,
          config.clientWarmupFlows,
        );
      }
      measured.clients = { server: 'parley', questions: CLIENT_QUESTIONS, costs };
    }

    if (has('f')) {
      progress(`(f) memory: ${config.flowsInFlight} modern flows in flight, then pending 2025-era questions`);
      const modern: NonNullable<BenchResults['memory']>['modern'] = {};
      for (const kind of ['parley', 'sdk'] as const) {
        const fresh = await servers.start(kind, `${kind} (HTTP, memory)`);
        modern[kind] = await measureModernMemory(fresh, config.flowsInFlight);
        await fresh.stop();
      }
      const patient = await servers.start('parley', 'parley (HTTP, pending questions)', {
        BENCH_QUESTION_TIMEOUT_MS: String(config.questionTimeoutMs),
        BENCH_RESUME_GRACE_MS: String(config.resumeGraceMs),
      });
      const pending = await measurePendingMemory(
        patient,
        config.pendingSessions,
        config.pendingPerSession,
        config.questionTimeoutMs,
        config.resumeGraceMs,
        WARMUP_HELD,
      );
      await patient.stop();
      // 20 + 80: the bench server's anonymous quota is 100 sessions.
      const roomy = await servers.start('parley', 'parley (HTTP, idle sessions)');
      const sessions = await measureSessionMemory(roomy, 80, 20);
      await roomy.stop();
      const sdkRoomy = await servers.start('sdk-sessions', 'raw SDK (HTTP, its own idle sessions)');
      const sdkSessions = await measureSessionMemory(sdkRoomy, 80, 20);
      await sdkRoomy.stop();
      progress(
        `(f) one host: ${config.hostCalls} calls in flight on one 2025-era session, then answered at once`,
      );
      const host = await servers.start('parley', 'parley (HTTP, one host with many calls)');
      const oneHost = await measureOneHost(host, config.hostCalls);
      await host.stop();
      progress(`(f) floors: ${pending.questions} held HTTP responses, questions pending over stdio`);
      const bare = await servers.start('floor', 'floor (HTTP, held responses)');
      const heldResponse = await measureHeldResponses(bare, pending.questions);
      await bare.stop();
      const floors = {
        heldResponse,
        sdkStdio: await measureStdioPending('sdk-push', pending.questions),
        parleyStdio: await measureStdioPending('parley', pending.questions),
      };
      measured.memory = { modern, pending, sessions, sdkSessions, floors, oneHost };
    }

    if (has('g')) {
      progress('(g) form renderer in Chromium');
      measured.renderer = await measureFormRenderer(config.rendererRuns);
    }

    if (has('h')) {
      progress(
        '(h) the gateway: 2026-07-28 host > 2026-07-28 and > 2025 upstream, against the upstream directly',
      );
      const upstream = await servers.start('parley', 'parley (HTTP, behind the gateway)', PATIENT_UPSTREAM);
      const gateway = (era: string) =>
        servers.start(GATEWAY_KIND, `gateway (HTTP, upstream spoken to in ${era})`, {
          BENCH_UPSTREAM_URL: upstream.url,
          BENCH_UPSTREAM_ERA: era,
        });
      const flowServers = {
        upstream,
        modern: await gateway('2026-07-28'),
        handshake: await gateway('2025-11-25'),
        forward: await servers.start(FORWARD_FLOOR_KIND, 'forwarding floor (HTTP, bytes passed on)', {
          BENCH_UPSTREAM_URL: upstream.url,
        }),
      };
      const flows = await measureGatewayFlows(flowServers, GATEWAY_SHAPES, config, progress);
      let profiles: NonNullable<BenchResults['gateway']>['profiles'];
      if (config.profileMs > 0) {
        progress('(h) profiles of the gateway at concurrency 16');
        await mkdir(RESULTS_DIR, { recursive: true });
        profiles = {
          modern: await profileServer(
            flowServers.modern,
            config.profileMs,
            RESULTS_DIR,
            REPO_ROOT,
            'gateway-2026-h-c16',
          ),
          handshake: await profileServer(
            flowServers.handshake,
            config.profileMs,
            RESULTS_DIR,
            REPO_ROOT,
            'gateway-2025-h-c16',
          ),
        };
      }
      await Promise.all([
        upstream.stop(),
        flowServers.modern.stop(),
        flowServers.handshake.stop(),
        flowServers.forward.stop(),
      ]);

      progress(`(h) ${config.parkedCalls} calls parked in the gateway, against pending 2025-era questions`);
      const patient = await servers.start('parley', 'parley (HTTP, parked calls upstream)', PATIENT_UPSTREAM);
      const parking = await servers.start(GATEWAY_KIND, 'gateway (HTTP, parked calls)', {
        BENCH_UPSTREAM_URL: patient.url,
        BENCH_UPSTREAM_ERA: '2025-11-25',
      });
      const parked = await measureParkedCalls(parking, patient, config.parkedCalls, WARMUP_HELD);
      await Promise.all([parking.stop(), patient.stop()]);
      const reference = await servers.start(
        'parley',
        'parley (HTTP, pending questions for (h))',
        PATIENT_UPSTREAM,
      );
      const pendingQuestion = await measurePendingHeap(
        reference,
        config.pendingSessions,
        config.pendingPerSession,
        WARMUP_HELD,
      );
      await reference.stop();
      progress('(h) the SDK client alone under a parked call, with and without its standalone GET stream');
      const clientFloor = async (noGetStream: boolean) => {
        const label = noGetStream ? ', no GET stream' : '';
        const behind = await servers.start(
          'parley',
          `parley (HTTP, behind the client floor${label})`,
          PATIENT_UPSTREAM,
        );
        const floor = await servers.start(CLIENT_FLOOR_KIND, `the SDK client alone${label}`, {
          BENCH_UPSTREAM_URL: behind.url,
          ...(noGetStream && { BENCH_NO_GET_STREAM: '1' }),
        });
        try {
          return await measureClientFloor(floor, config.parkedCalls, WARMUP_HELD);
        } finally {
          await Promise.all([floor.stop(), behind.stop()]);
        }
      };
      measured.gateway = {
        shapes: GATEWAY_SHAPES,
        flows,
        parked: {
          ...parked,
          pendingQuestion,
          clientFloor: await clientFloor(false),
          clientFloorNoGet: await clientFloor(true),
        },
        ...(profiles && { profiles }),
      };
    }

    if (config.profileMs > 0 && (has('a') || has('b'))) {
      progress('profiles of (a) at concurrency 16');
      await mkdir(RESULTS_DIR, { recursive: true });
      const profiles: PerServer<ServerProfile> = {};
      for (const kind of ['parley', 'sdk', 'sdk-floor'] as const) {
        profiles[kind] = await profileServer(http[kind], config.profileMs, RESULTS_DIR, REPO_ROOT);
      }
      measured.profiles = profiles;
    }
  } finally {
    await servers.stopAll();
  }
  const partial = {
    ...measured,
    format: 1 as const,
    date,
    ...(source && { source }),
    config,
    machine: { ...machine, loadAverageAtEnd: loadavg()[0]! },
    serverLogs: servers.logs(),
  };
  return { ...partial, goals: checkGoals(partial) };
}

const parsed = parseConfig(process.argv.slice(2));
if ('problem' in parsed) {
  process.stderr.write(`${parsed.problem}\n\n${USAGE}\n`);
  process.exit(2);
}
if (process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const results = await run(parsed.config);
const markdown = renderMarkdown(results);
await mkdir(RESULTS_DIR, { recursive: true });
await writeFile(new URL('../results/latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(new URL('../results/latest.md', import.meta.url), markdown);
process.stdout.write(markdown);
progress('Wrote bench/results/latest.json and bench/results/latest.md');
