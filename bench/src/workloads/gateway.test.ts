import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_FLOOR_KIND, FORWARD_FLOOR_KIND, GATEWAY_KIND } from '../servers/kinds.js';
import { ServerProcess } from '../servers/spawn.js';
import { GATEWAY_TARGETS, measureGatewayFlows } from './gateway-flows.js';
import { measureClientFloor, measureParkedCalls, measurePendingHeap } from './parked-calls.js';

// The measurers spawn real server processes, which run the built bench (bench/dist).
const main = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));
const PATIENT = { BENCH_MAX_SESSIONS: '500', BENCH_QUESTION_TIMEOUT_MS: '600000' };

async function gatewayIn(front: ServerProcess, era: string): Promise<ServerProcess> {
  return ServerProcess.start(GATEWAY_KIND, {
    main,
    env: { BENCH_UPSTREAM_URL: front.url, BENCH_UPSTREAM_ERA: era },
  });
}

// Three processes each, on a machine that may be busy: more time than the unit default.
describe('(h) the gateway', { timeout: 90_000 }, () => {
  it('measures every pairing through the gateway and directly, interleaved, with the flows checked', async () => {
    const upstream = await ServerProcess.start('parley', { main, env: PATIENT });
    const servers = {
      upstream,
      modern: await gatewayIn(upstream, '2026-07-28'),
      handshake: await gatewayIn(upstream, '2025-11-25'),
      forward: await ServerProcess.start(FORWARD_FLOOR_KIND, {
        main,
        env: { BENCH_UPSTREAM_URL: upstream.url },
      }),
    };
    try {
      const lines: string[] = [];
      const flows = await measureGatewayFlows(
        servers,
        [{ questions: 2, concurrency: 2 }],
        { runs: 2, runMs: 200, warmupMs: 100 },
        (line) => lines.push(line),
      );
      const shape = flows['q2-c2']!;
      for (const target of GATEWAY_TARGETS) {
        expect(shape[target]?.runs, target).toHaveLength(2);
        expect(shape[target]!.flowsPerSecond, target).toBeGreaterThan(0);
        expect(shape[target]!.cpuPerRoundUs, target).toBeGreaterThan(0);
      }
      expect(lines).toHaveLength(2 * GATEWAY_TARGETS.length);
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    }
  });

  it('counts the heap of calls parked in the gateway, and of the same calls upstream', async () => {
    const upstream = await ServerProcess.start('parley', { main, env: PATIENT });
    const gateway = await gatewayIn(upstream, '2025-11-25');
    try {
      const parked = await measureParkedCalls(gateway, upstream, 60, 10);
      for (const side of [parked.gateway, parked.upstream]) {
        expect(side.held).toBe(60);
        expect(side.before.handlersRunning).toBe(10);
        expect(side.after.handlersRunning).toBe(70);
        expect(side.heapKbEach).toBeGreaterThan(0.5);
        expect(side.heapKbEach).toBeLessThan(1000);
      }
    } finally {
      await Promise.all([gateway.stop(), upstream.stop()]);
    }
  });

  it('counts the heap of pending 2025-era questions over HTTP sessions, the reference', async () => {
    const parley = await ServerProcess.start('parley', { main, env: PATIENT });
    try {
      const cost = await measurePendingHeap(parley, 2, 30, 10);
      expect(cost.held).toBe(60);
      expect(cost.before.handlersRunning).toBe(0);
      expect(cost.after.handlersRunning).toBe(60);
      expect(cost.heapKbEach).toBeGreaterThan(0.5);
      expect(cost.heapKbEach).toBeLessThan(100);
    } finally {
      await parley.stop();
    }
  });

  it.each([false, true])(
    'counts the heap of the SDK client alone: an idle session, and one with a call waiting (no GET stream: %s)',
    async (noGetStream) => {
      const upstream = await ServerProcess.start('parley', { main, env: PATIENT });
      const floor = await ServerProcess.start(CLIENT_FLOOR_KIND, {
        main,
        env: { BENCH_UPSTREAM_URL: upstream.url, ...(noGetStream && { BENCH_NO_GET_STREAM: '1' }) },
      });
      try {
        const cost = await measureClientFloor(floor, 40, 10);
        expect(cost.session.held).toBe(40);
        // Idle sessions wait on no question; the sessions with a call each have theirs.
        expect(cost.session.after.handlersRunning).toBe(10);
        expect(cost.sessionWithCall.after.handlersRunning).toBe(50);
        const upstreamStats = await upstream.stats();
        expect(upstreamStats.handlersRunning).toBe(50);
        // Each session's standalone GET stream is a connection of its own, held open: 90 of them, or none.
        const streams = upstreamStats.connections!.open;
        if (noGetStream) expect(streams).toBeLessThan(90);
        else expect(streams).toBeGreaterThanOrEqual(90 + 50);
        for (const part of [cost.session, cost.sessionWithCall]) {
          expect(part.heapKbEach).toBeGreaterThan(0.5);
          expect(part.heapKbEach).toBeLessThan(1000);
        }
      } finally {
        await Promise.all([floor.stop(), upstream.stop()]);
      }
    },
  );
});
