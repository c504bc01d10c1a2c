import type { LoadSummary } from '../workloads/flows.js';
import type { GatewayTarget } from '../workloads/gateway-flows.js';
import type { PendingCost } from '../workloads/pending-cost.js';
import { markdownTable } from './markdown-table.js';
import { n0, n1, n2 } from './numbers.js';
import { profileSection } from './profile-section.js';
import type { GatewayResults } from './results.js';

/** The bounds for (h): flows/s through the gateway against direct, and a parked call's heap. */
export const GATEWAY_FLOWS_GOAL = 0.7;
export const PARKED_CALL_GOAL = 2;

const PAIRINGS = [
  {
    pairing: '2026-07-28 host > 2026-07-28 upstream',
    direct: 'direct-2026',
    gateway: 'gateway-2026',
    directPath: 'direct: 2026-07-28 rounds',
    gatewayPath: 'through the gateway: each round relayed',
  },
  {
    pairing: '2026-07-28 host > 2025-11-25 upstream',
    direct: 'direct-2025',
    gateway: 'gateway-2025',
    directPath: 'direct: a 2025 session, the question pushed',
    gatewayPath: 'through the gateway: the upstream call parked between rounds',
  },
] as const satisfies readonly {
  pairing: string;
  direct: GatewayTarget;
  gateway: GatewayTarget;
  directPath: string;
  gatewayPath: string;
}[];

/** The forwarding floor's row: the least any HTTP gateway does, on the same cores. */
const FORWARD_PATH = 'the forwarding floor: node:http passing the bytes on, nothing checked';

/** Through the gateway against direct, c16 flows/s: the ratio (h)'s flow goal reads. */
export function gatewayRatio(gateway: GatewayResults, through: GatewayTarget, direct: GatewayTarget) {
  const c16 = gateway.flows['q1-c16'];
  const a = c16?.[through];
  const b = c16?.[direct];
  return a && b ? { through: a, direct: b, ratio: a.flowsPerSecond / b.flowsPerSecond } : undefined;
}

function flowsTable(gateway: GatewayResults): string {
  const c1 = gateway.flows['q1-c1'];
  const c16 = gateway.flows['q1-c16'];
  const latency = (summary: LoadSummary | undefined) =>
    summary ? `${n2(summary.roundP50Ms)} / ${n2(summary.roundP99Ms)}` : '—';
  const row = (pairing: string, path: string, target: GatewayTarget, direct: GatewayTarget) => {
    const one = c1?.[target];
    const many = c16?.[target];
    const ratio = gatewayRatio(gateway, target, direct);
    return [
      pairing,
      path,
      one ? n0(one.flowsPerSecond) : '—',
      latency(one),
      many ? n0(many.flowsPerSecond) : '—',
      latency(many),
      ratio ? `${n2(ratio.ratio)}×` : '—',
      many ? n0(many.cpuPerRoundUs) : '—',
    ];
  };
  const rows = PAIRINGS.flatMap((pairing) => [
    row(pairing.pairing, pairing.directPath, pairing.direct, pairing.direct),
    row('', pairing.gatewayPath, pairing.gateway, pairing.direct),
    ...(pairing.direct === 'direct-2026' && c16?.['forward-2026']
      ? [row('', FORWARD_PATH, 'forward-2026', pairing.direct)]
      : []),
  ]);
  return markdownTable(
    [
      'Pairing',
      'Path',
      'c1 flows/s',
      'c1 round p50 / p99 ms',
      'c16 flows/s',
      'c16 round p50 / p99 ms',
      'c16 vs direct',
      'c16 CPU µs/round of the process called',
    ],
    rows,
  );
}

function parkedTable(gateway: GatewayResults): string {
  const { parked } = gateway;
  const reference = parked.pendingQuestion.heapKbEach;
  const counted = (cost: PendingCost) => `${n0(cost.held)} beyond ${n0(cost.before.handlersRunning)} warm-up`;
  const times = (kb: number) => `${n2(kb / reference)}×`;
  return markdownTable(
    ['What holds the call', 'Process', 'Counted', 'heap KB each', '× a pending 2025 question'],
    [
      [
        'a parked call: a 2025 upstream call held open while a 2026-07-28 host answers (its 2025 session included)',
        'the gateway',
        counted(parked.gateway),
        n1(parked.gateway.heapKbEach),
        times(parked.gateway.heapKbEach),
      ],
      [
        'the same call upstream: a question pending on a 2025 session of its own',
        'the upstream (Parley)',
        counted(parked.upstream),
        n1(parked.upstream.heapKbEach),
        times(parked.upstream.heapKbEach),
      ],
      [
        'a pending 2025-era question, HTTP sessions, counted as (f) (iv)',
        'Parley',
        `${n0(parked.pendingQuestion.held)} beyond ${n0(parked.pendingQuestion.before.handlersRunning)} pending (a warm-up answered first)`,
        n1(reference),
        '1.00×',
      ],
      ...clientFloorRows(parked, counted, times),
      ['goal', 'the gateway', '', n1(reference * PARKED_CALL_GOAL), `≤ ${n2(PARKED_CALL_GOAL)}×`],
    ],
  );
}

/** The SDK client alone under a parked call, with and without its standalone GET stream, when measured. */
function clientFloorRows(
  parked: GatewayResults['parked'],
  counted: (cost: PendingCost) => string,
  times: (kb: number) => string,
): string[][] {
  const rows: string[][] = [];
  const floors = [
    [parked.clientFloor, ''],
    [parked.clientFloorNoGet, ', without the standalone GET stream'],
  ] as const;
  for (const [floor, variant] of floors) {
    if (!floor) continue;
    rows.push(
      [
        `the SDK client alone, with its default fetch: an idle 2025 session${variant}`,
        'the SDK client',
        counted(floor.session),
        n1(floor.session.heapKbEach),
        times(floor.session.heapKbEach),
      ],
      [
        `the same: a session with one call waiting on its question${variant}`,
        'the SDK client',
        counted(floor.sessionWithCall),
        n1(floor.sessionWithCall.heapKbEach),
        times(floor.sessionWithCall.heapKbEach),
      ],
    );
  }
  return rows;
}

/** (h)'s sections of the report. */
export function gatewaySections(gateway: GatewayResults): string[] {
  const sections = [
    '### (h) The gateway against the same upstream spoken to directly',
    'One Parley survey server is the upstream. A 2026-07-28 host (the bench loop) calls it through `@parley/gateway` speaking 2026-07-28 to it, and through a gateway speaking 2025-11-25 to it; directly, the same server is spoken to in the era the gateway speaks to it. Runs interleaved; CPU is the process called: the upstream when direct, the gateway when through it (the upstream works as well then).',
    flowsTable(gateway),
    '### (h) What a parked call costs',
    'Heap after a full GC, beyond the calls parked (or questions pending) first as a warm-up, measured in this run.',
    parkedTable(gateway),
  ];
  const { modern, handshake } = gateway.profiles ?? {};
  if (modern || handshake) sections.push('### Profiles of the gateway under (h) at concurrency 16');
  if (modern) sections.push(profileSection('The gateway, 2026-07-28 host > 2026-07-28 upstream', modern));
  if (handshake)
    sections.push(profileSection('The gateway, 2026-07-28 host > 2025-11-25 upstream', handshake));
  return sections;
}
