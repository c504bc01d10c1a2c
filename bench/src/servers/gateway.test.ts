import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdSource, parseReply, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import { openingRequest, REQUEST_HEADERS } from '../load/messages.js';
import { keyOf, messageOf } from '../survey.js';
import { gatewayOptionsFromEnv } from './gateway.js';
import { GATEWAY_KIND } from './kinds.js';
import { ServerProcess } from './spawn.js';

// The gateway and its upstream run as the bench runs them: each its own process, from bench/dist.
const main = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));
const ERAS = ['2026-07-28', '2025-11-25'] as const;

let upstream: ServerProcess;
const gateways = new Map<string, ServerProcess>();
beforeAll(async () => {
  upstream = await ServerProcess.start('parley', { main });
  for (const era of ERAS)
    gateways.set(
      era,
      await ServerProcess.start(GATEWAY_KIND, {
        main,
        env: { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_ERA: era },
      }),
    );
});
afterAll(async () => {
  await Promise.all([...gateways.values(), upstream].map((server) => server?.stop()));
});

describe.each(ERAS)('the gateway speaking %s to the survey server', (era) => {
  it('relays whole survey flows of 1, 5 and 20 questions to a 2026-07-28 host, one question per round', async () => {
    const poster = new KeepAlivePoster(gateways.get(era)!.url, 2);
    try {
      for (const questions of [1, 5, 20]) {
        const flow = await runFlow(poster, questions, new IdSource());
        expect(flow.roundNs).toHaveLength(questions + 1);
        expect(flow.stateChars).toHaveLength(questions);
      }
    } finally {
      poster.close();
    }
  });

  it('says which upstream asks, and counts the calls it holds open as its running handlers', async () => {
    const gateway = gateways.get(era)!;
    const poster = new KeepAlivePoster(gateway.url, 1);
    try {
      const reply = parseReply((await poster.post(openingRequest(1, 1), REQUEST_HEADERS)).body);
      const question = reply?.result?.inputRequests?.[keyOf(0)] as { params?: { message?: string } };
      expect(question.params?.message).toBe(`bench-parley asks: ${messageOf(0, 1)}`);
      // A 2025 upstream's call stays open in the gateway until the host comes back; a 2026-07-28 one holds nothing.
      expect((await gateway.stats({ gc: true })).handlersRunning).toBe(era === '2026-07-28' ? 0 : 1);
    } finally {
      poster.close();
    }
  });
});

describe('the gateway server’s configuration', () => {
  it('names what is missing or wrong in its environment', () => {
    expect(() => gatewayOptionsFromEnv({})).toThrow(/BENCH_UPSTREAM_URL/);
    expect(() =>
      gatewayOptionsFromEnv({ BENCH_UPSTREAM_URL: 'http://x/mcp', BENCH_UPSTREAM_ERA: 'auto' }),
    ).toThrow(/BENCH_UPSTREAM_ERA/);
    expect(gatewayOptionsFromEnv({ BENCH_UPSTREAM_URL: 'http://x/mcp' })).toEqual({
      upstreamUrl: 'http://x/mcp',
      era: '2026-07-28',
      telemetry: false,
    });
    const traced = { BENCH_UPSTREAM_URL: 'http://x/mcp', BENCH_GATEWAY_TELEMETRY: '1' };
    expect(gatewayOptionsFromEnv(traced).telemetry).toBe(true);
  });
});
