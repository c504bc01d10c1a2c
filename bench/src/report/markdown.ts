import { CLIENT_KINDS, type ClientKind } from '../clients/kinds.js';
import { FEATURE_KINDS, SERVER_KINDS, type ServerKind } from '../servers/kinds.js';
import type { FeatureCosts } from '../workloads/feature-costs.js';
import type { LoadSummary, PerServer } from '../workloads/flows.js';
import type { MemoryReading, Release } from '../workloads/memory.js';
import { type PendingFloors, parleyPendingKb, pendingFloorKb } from '../workloads/pending-cost.js';
import type { SessionMemory } from '../workloads/session-memory.js';
import { gatewaySections } from './gateway-report.js';
import { FEATURE_COST_GOAL_PCT } from './goals.js';
import { markdownTable } from './markdown-table.js';
import { n0, n1, n2 } from './numbers.js';
import { profileSection } from './profile-section.js';
import type { BenchResults } from './results.js';

const NAMES: Record<ServerKind, string> = {
  parley: 'Parley',
  sdk: 'raw SDK',
  floor: 'bare floor',
  'json-floor': 'JSON floor',
  'sdk-floor': 'SDK floor',
  'parley-use': 'Parley + an empty `server.use()`',
  'parley-otel': 'Parley + `telemetry()`, no exporter',
  'parley-features': 'Parley and each feature, one process',
  'sdk-sessions': 'raw SDK, its own HTTP sessions',
  gateway: 'the gateway',
  'client-floor': 'the SDK client alone, holding 2025 sessions',
  'forward-floor': 'the forwarding floor (node:http passing bytes on)',
};
const mb = (value: number) => value.toFixed(1);

function source(results: BenchResults): string {
  if (!results.source) return '';
  return `, commit ${results.source.commit}${results.source.dirty ? ' with uncommitted changes' : ''}`;
}

function machineLine(results: BenchResults): string {
  const { machine, config } = results;
  return (
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node} (${machine.platform}); ` +
    `load average ${n1(machine.loadAverageAtStart)} at start, ${n1(machine.loadAverageAtEnd)} at end. ` +
    `${results.date}${source(results)}${config.quick ? ', **--quick**' : ''}; medians of ${config.runs} runs of ${config.runMs / 1000} s after ${config.warmupMs / 1000} s warm-up.`
  );
}

function goalsTable(results: BenchResults): string {
  const met = (value: boolean | undefined) =>
    value === undefined ? 'not measured' : value ? '**met**' : '**missed**';
  return markdownTable(
    ['Goal', 'Target', 'Measured', 'Status', 'Note'],
    results.goals.map((goal) => [goal.goal, goal.target, goal.measured, met(goal.met), goal.note ?? '']),
  );
}

function throughputTable(flows: Record<string, PerServer<LoadSummary>>): string {
  const c1 = flows['q1-c1'];
  const c16 = flows['q1-c16'];
  const sdk = c16?.sdk?.flowsPerSecond;
  const floor = c16?.floor?.flowsPerSecond;
  const jsonFloor = c16?.['json-floor']?.flowsPerSecond;
  const sdkFloor = c16?.['sdk-floor']?.flowsPerSecond;
  const rows = SERVER_KINDS.filter((kind) => c1?.[kind] || c16?.[kind]).map((kind) => {
    const one = c1?.[kind];
    const many = c16?.[kind];
    return [
      NAMES[kind],
      one ? n0(one.flowsPerSecond) : '—',
      one ? `${n2(one.roundP50Ms)} / ${n2(one.roundP99Ms)}` : '—',
      many ? n0(many.flowsPerSecond) : '—',
      many ? `${n2(many.roundP50Ms)} / ${n2(many.roundP99Ms)}` : '—',
      many && sdk ? `${n2(many.flowsPerSecond / sdk)}×` : '—',
      many && floor ? `${n0((100 * many.flowsPerSecond) / floor)}%` : '—',
      many && jsonFloor ? `${n0((100 * many.flowsPerSecond) / jsonFloor)}%` : '—',
      many && sdkFloor ? `${n0((100 * many.flowsPerSecond) / sdkFloor)}%` : '—',
    ];
  });
  return markdownTable(
    [
      'Server',
      'c1 flows/s',
      'c1 round p50 / p99 ms',
      'c16 flows/s',
      'c16 round p50 / p99 ms',
      'c16 vs raw SDK',
      'c16 vs bare floor',
      'c16 vs JSON floor',
      'c16 vs SDK floor',
    ],
    rows,
  );
}

function featureTable({ servers, costs }: FeatureCosts): string {
  const pct = (value: number) => `${value >= 0 ? '+' : '−'}${n1(Math.abs(value))}%`;
  const rows = (['parley', ...FEATURE_KINDS] as const)
    .filter((kind) => servers[kind])
    .map((kind) => {
      const run = servers[kind]!;
      const cost = kind === 'parley' ? undefined : costs[kind];
      return [
        kind === 'parley' ? 'Parley, no middleware' : NAMES[kind],
        n0(run.flowsPerSecond),
        cost ? pct(-cost.flowsPct) : '—',
        n0(run.cpuPerRoundUs),
        cost ? pct(cost.cpuPct) : '—',
        cost ? cost.cpuPctByProcess.map(pct).join(', ') : '—',
      ];
    });
  return markdownTable(
    [
      'Server',
      'c16 flows/s',
      'flows/s vs none',
      'server CPU µs/round',
      'CPU/round vs none',
      'CPU/round vs none, by process',
    ],
    rows,
  );
}

function cpuTable(flows: Record<string, PerServer<LoadSummary>>, questions: readonly number[]): string {
  const rows = SERVER_KINDS.map((kind) => {
    const cells = questions.map((q) => flows[`q${q}-c16`]?.[kind]);
    if (cells.every((cell) => !cell)) return undefined;
    const first = cells[0];
    const last = cells.at(-1);
    return [
      NAMES[kind],
      ...cells.map((cell) => (cell ? n0(cell.cpuPerFlowUs) : '—')),
      ...cells.map((cell) => (cell ? n0(cell.cpuPerRoundUs) : '—')),
      first && last ? `${n2(last.cpuPerRoundUs / first.cpuPerRoundUs)}×` : '—',
    ];
  }).filter((row): row is string[] => row !== undefined);
  return markdownTable(
    [
      'Server',
      ...questions.map((q) => `µs/flow, ${q}q`),
      ...questions.map((q) => `µs/round, ${q}q`),
      `round ${questions.at(-1)}q ÷ ${questions[0]}q`,
    ],
    rows,
  );
}

function stateTables(results: BenchResults): string {
  const parts: string[] = [];
  if (results.stateCodec) {
    parts.push(
      markdownTable(
        [
          'Flow',
          'Parley seal + open, µs/round',
          "Parley's windows, middle half",
          'raw SDK mint + verify, µs/round',
          'AES-256-GCM alone (node:crypto), µs/round',
        ],
        results.stateCodec.map((row) => [
          `${row.questions} question(s)`,
          n1(row.parleyUs),
          row.parleySpreadUs ? `${n1(row.parleySpreadUs[0])}–${n1(row.parleySpreadUs[1])}` : '—',
          n1(row.sdkUs),
          n1(row.aesGcmUs),
        ]),
      ),
    );
  }
  if (results.wireState) {
    const at = [0, 1, 4, 19];
    parts.push(
      markdownTable(
        [
          'Server',
          ...at.map((k) => `state after ${k} answers`),
          'chars per answer',
          'max overhead beyond the answers',
        ],
        SERVER_KINDS.filter((kind) => results.wireState?.[kind]).map((kind) => {
          const wire = results.wireState![kind]!;
          return [
            NAMES[kind],
            ...at.map((k) => `${wire.stateChars[k] ?? '—'} (answers ${wire.answerBytes[k] ?? '—'})`),
            n1(wire.charsPerAnswer),
            String(wire.maxOverheadChars),
          ];
        }),
      ),
    );
  }
  return parts.join('\n\n');
}

function handshakeTable(results: BenchResults): string {
  return markdownTable(
    ['Server', 'Transport', 'Round p50 / p99 ms', 'Calls'],
    (results.handshake ?? []).map((row) => [
      NAMES[row.server],
      row.transport === 'http' ? 'HTTP sessions' : 'stdio',
      row.status === 'ok'
        ? `${n2(row.roundP50Ms!)} / ${n2(row.roundP99Ms!)}`
        : `**cannot**: ${(row.reason ?? '').replace(/\|/g, '\\|')}`,
      row.status === 'ok' ? String(row.calls) : '—',
    ]),
  );
}

function clientTable(results: BenchResults): string {
  const clients = results.clients;
  if (!clients) return '';
  const bare = clients.costs.bare;
  const names: Record<ClientKind, string> = {
    bare: 'bench bare loop (floor)',
    sdk: 'raw SDK Client',
    parley: '@parley/client',
  };
  const table = markdownTable(
    ['Client', 'client CPU µs/round', 'overhead vs bare loop, µs/round', 'wall ms/round'],
    CLIENT_KINDS.filter((kind) => clients.costs[kind]).map((kind) => [
      names[kind],
      n0(clients.costs[kind]!.cpuPerRoundUs),
      bare ? n0(clients.costs[kind]!.cpuPerRoundUs - bare.cpuPerRoundUs) : '—',
      n2(clients.costs[kind]!.wallPerRoundMs),
    ]),
  );
  return `${clients.questions}-question flows against the ${NAMES[clients.server]} server.\n\n${table}`;
}

function memoryTables(results: BenchResults): string {
  const memory = results.memory;
  if (!memory) return '';
  const cell = (reading: MemoryReading) => `${mb(reading.heapMb)} / ${mb(reading.rssMb)}`;
  const modern = markdownTable(
    ['Server', 'Flows', 'heap / RSS MB before', 'with all in flight', 'after all complete'],
    SERVER_KINDS.filter((kind) => memory.modern[kind]).map((kind) => {
      const row = memory.modern[kind]!;
      return [NAMES[kind], n0(row.flows), cell(row.before), cell(row.inFlight), cell(row.after)];
    }),
  );
  const p = memory.pending;
  const released = (release: Release) => [
    release.releasedInMs === undefined
      ? `${release.handlersRunning} (still waiting)`
      : `0 (released in ${n0(release.releasedInMs)} ms)`,
    cell(release),
  ];
  const pending = markdownTable(
    ['Moment (Parley, HTTP sessions)', 'questions waiting', 'heap / RSS MB'],
    [
      ['before', String(p.before.handlersRunning), cell(p.before)],
      [
        `${p.questions} questions asked (took ${n1(p.setupMs / 1000)} s)`,
        String(p.pending.handlersRunning),
        cell(p.pending),
      ],
      [`after the ${p.timeoutMs / 1000} s question timeout`, ...released(p.afterTimeout)],
      ['pending again, then every client ended its session (DELETE)', ...released(p.afterSessionEnd)],
      ['pending again, then every client dropped its connections', ...released(p.afterDrop)],
    ],
  );
  const sessions = memory.sessions ? sessionsTable(memory.sessions, memory.sdkSessions) : '';
  const h = memory.oneHost;
  const host = h
    ? markdownTable(
        ['One host, one session (Parley, default limits)', 'heap / RSS MB', 'connections', 'per call'],
        [
          ['before', cell(h.before), '', ''],
          [
            `${n0(h.calls)} calls in flight, each with a question pending (took ${n1(h.setupMs / 1000)} s)`,
            cell(h.held),
            `${n0(h.heldConnections)} open`,
            `${n1(((h.held.heapMb - h.before.heapMb) * 1024) / h.calls)} KB heap, ${n1(((h.held.rssMb - h.before.rssMb) * 1024) / h.calls)} KB RSS`,
          ],
          [
            `every question answered at once: ${n0(h.delivered)} of ${n0(h.calls)} delivered in ${n1(h.answeredMs / 1000)} s`,
            cell(h.after),
            `${n0(h.peakConnections)} at most`,
            '',
          ],
        ],
      )
    : '';
  return [modern, pending, sessions, host].filter(Boolean).join('\n\n');
}

/** Idle 2025-era sessions: Parley's, then (when measured) the raw SDK's own, the floor under them. */
function sessionsTable(s: SessionMemory, sdk: SessionMemory | undefined): string {
  const cell = (reading: MemoryReading) => `${mb(reading.heapMb)} / ${mb(reading.rssMb)}`;
  const perSession = (m: SessionMemory) =>
    `${n1(m.heapKbPerSession)} KB heap, ${n1(m.rssKbPerSession)} KB RSS`;
  const rows = (m: SessionMemory, who: string): string[][] =>
    m.cold && m.warmup !== undefined && m.coldHeapKbPerSession !== undefined
      ? [
          [`${who}: before any session`, cell(m.cold), ''],
          [
            `${who}: ${m.warmup} warm-up sessions open`,
            cell(m.before),
            `${n1(m.coldHeapKbPerSession)} KB heap from cold (one-time costs included)`,
          ],
          [`${who}: ${m.sessions} sessions more`, cell(m.open), perSession(m)],
        ]
      : [
          [`${who}: before`, cell(m.before), ''],
          [`${who}: ${m.sessions} sessions open`, cell(m.open), perSession(m)],
        ];
  return markdownTable(
    ['Idle 2025-era sessions', 'heap / RSS MB', 'per session'],
    [...rows(s, 'Parley'), ...(sdk ? rows(sdk, NAMES['sdk-sessions']) : [])],
  );
}

/** "(f) what a pending 2025-era question costs": the floors beneath Parley, in the same run. */
function pendingCostTable(results: BenchResults, floors: PendingFloors): string {
  const p = results.memory!.pending;
  const parleyHttpKb = parleyPendingKb(p);
  const floorKb = pendingFloorKb(floors);
  const beyondWarmup = `${n0(floors.heldResponse.held)} beyond ${n0(floors.heldResponse.before.handlersRunning)} warm-up`;
  // Two decimals: the goal is 1.10×, and one decimal shows 1.14× as "1.1×".
  const times = (kb: number, under: number) => `${n2(kb / under)}×`;
  return markdownTable(
    ['What holds the question', 'Transport', 'Counted', 'heap KB per question', '× its floor'],
    [
      [
        '(i) bare node:http: one open response (SSE head + one event), nothing else',
        'HTTP/1.1',
        beyondWarmup,
        n1(floors.heldResponse.heapKbEach),
        'floor',
      ],
      [
        '(ii) raw SDK: a tool awaiting `ctx.mcpReq.elicitInput`',
        'stdio',
        beyondWarmup,
        n1(floors.sdkStdio.heapKbEach),
        'floor',
      ],
      ['floor over HTTP: (i) + (ii)', 'HTTP sessions', '—', n1(floorKb), 'floor'],
      [
        '(iii) Parley: `ctx.elicit`',
        'stdio',
        beyondWarmup,
        n1(floors.parleyStdio.heapKbEach),
        `${times(floors.parleyStdio.heapKbEach, floors.sdkStdio.heapKbEach)} (ii)`,
      ],
      [
        '(iv) Parley: `ctx.elicit`',
        'HTTP sessions',
        p.warmup
          ? `${n0(p.questions)} beyond ${n0(p.warmup)} answered warm-up, over ${results.config.pendingSessions} sessions`
          : `${n0(p.questions)} from idle, over ${results.config.pendingSessions} sessions`,
        parleyHttpKb === undefined
          ? `not measured: only ${n0(p.pending.handlersRunning)} of ${n0(p.questions)} were pending at the reading`
          : n1(parleyHttpKb),
        parleyHttpKb === undefined ? '—' : `${times(parleyHttpKb, floorKb)} (i) + (ii)`,
      ],
      ['goal', 'HTTP sessions', '', n1(floorKb * 1.1), '≤ 1.1× (i) + (ii)'],
    ],
  );
}

function rendererText(results: BenchResults): string {
  const renderer = results.renderer;
  if (!renderer) return '';
  if (renderer.status !== 'ok') return `Not measured: ${renderer.reason}`;
  return markdownTable(
    [
      'Renderer',
      'min + gzip',
      'minified',
      `${renderer.fields}-field render, median of ${renderer.runs}`,
      'first render',
    ],
    [
      [
        '`@parley/renderer`',
        `${n1(renderer.gzipBytes / 1024)} KB`,
        `${n1(renderer.minifiedBytes / 1024)} KB`,
        `${n2(renderer.renderMs)} ms`,
        `${n2(renderer.firstRenderMs)} ms`,
      ],
    ],
  );
}

/** The run as markdown: the machine, the goals, and one table per workload. */
export function renderMarkdown(results: BenchResults): string {
  const sections: string[] = [`Machine: ${machineLine(results)}`, '### Goals', goalsTable(results)];
  if (results.flows) {
    sections.push('### (a) Two-round flow (one question)', throughputTable(results.flows));
    if (results.featureCosts) {
      const { timing } = results.featureCosts;
      sections.push(
        `#### (a) What a feature on the round path costs\n\nThe same flow at concurrency 16, Parley without and with each feature, served by the same process on three ports and taking turns (${timing.runs} turn${timing.runs === 1 ? '' : 's'} of ${n1(timing.runMs / 1000)} s in each of ${timing.processes === 1 ? 'one process' : `${timing.processes} processes started one after another`}): each feature's run is compared with plain Parley's run of the same turn, so the luck of a process falls on both sides, and the figure is the median over the processes of each one's median pair (a whole process can run one variant slower throughout). The goal: each costs at most ${FEATURE_COST_GOAL_PCT}% of server CPU per round.\n\n${featureTable(results.featureCosts)}`,
      );
    }
    const questions = [1, 5, 20].filter((q) => results.flows?.[`q${q}-c16`]);
    if (questions.length > 1) {
      sections.push(
        '### (b) Server CPU per flow and per round (concurrency 16)',
        cpuTable(results.flows, questions),
      );
    }
  }
  if (results.stateCodec || results.wireState)
    sections.push('### (c) State: seal + open, and size on the wire', stateTables(results));
  if (results.handshake)
    sections.push('### (d) Handshake era (2025 client, one question per leg)', handshakeTable(results));
  if (results.clients) sections.push('### (e) Client driver overhead', clientTable(results));
  if (results.memory) sections.push('### (f) Server memory (after a full GC)', memoryTables(results));
  if (results.memory?.floors) {
    sections.push(
      '### (f) what a pending 2025-era question costs',
      `Heap per question after a full GC in the server, each server in its own process; the floors are what the layers under Parley cost by themselves, measured in this run.\n\n${pendingCostTable(results, results.memory.floors)}`,
    );
  }
  if (results.renderer) sections.push('### (g) Form renderer', rendererText(results));
  if (results.gateway) sections.push(...gatewaySections(results.gateway));
  if (results.profiles) {
    sections.push('### Profiles of (a) at concurrency 16');
    for (const kind of SERVER_KINDS) {
      const profile = results.profiles[kind];
      if (profile) sections.push(profileSection(NAMES[kind], profile));
    }
  }
  if (results.serverLogs.length > 0) {
    sections.push(
      '### Server stderr',
      results.serverLogs
        .map((log) => `- ${log.server}: ${log.lines} lines, first: \`${(log.first[0] ?? '').slice(0, 200)}\``)
        .join('\n'),
    );
  }
  return `${sections.join('\n\n')}\n`;
}
