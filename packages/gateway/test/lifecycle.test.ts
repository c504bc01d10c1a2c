import { connect, scripted } from '@parley/client';
import { GatewayConfigError } from '@parley/gateway';
import { freePort } from '@parley/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RunningGateway,
  startGateway,
  startUpstream,
  startUpstreamWith,
  textOf,
  type Upstream,
} from './support.js';

// Upstreams that come late, go away, die mid-question, collide; and hosts that send what they
// should not. Each gets a clear error and changes nothing else.
const MCP = (body: Record<string, unknown>) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': String(body.method),
    ...(typeof (body.params as { name?: unknown })?.name === 'string' && {
      'mcp-name': (body.params as { name: string }).name,
    }),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
});
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, MCP({ method, params: { ...params, _meta: META } }));
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6);
  return JSON.parse(json) as Record<string, unknown>;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});
function keep<T extends { stop(): Promise<void> }>(thing: T): T {
  stops.push(() => thing.stop());
  return thing;
}

describe('upstreams that come and go', () => {
  it('serves the others while one is down, adds its tools when it comes, and names it in the error while it is gone', async () => {
    const port = await freePort();
    const desk = keep(await startUpstream('parley-upstream.mjs', 'http', 'desk'));
    const running = keep(
      await startGateway({
        upstreams: { desk: { url: desk.url }, late: { url: `http://127.0.0.1:${port}/mcp` } },
      }),
    );
    expect(running.gateway.status().upstreams.map((upstream) => [upstream.name, upstream.state])).toEqual([
      ['desk', 'ready'],
      ['late', 'down'],
    ]);
    const client = await connect(running.url, { ui: scripted({}) });
    stops.push(() => client.close());
    expect(textOf(await client.callTool('desk_echo', { text: 'hi' }))).toBe('hi');
    expect((await client.listTools()).some((tool) => tool.name.startsWith('late_'))).toBe(false);

    let late = await startUpstreamWith('parley-upstream.mjs', ['http', 'late'], { PORT: String(port) });
    await expect
      .poll(async () => (await client.listTools()).some((tool) => tool.name === 'late_echo'))
      .toBe(true);
    expect(textOf(await client.callTool('late_echo', { text: 'there' }))).toBe('there');

    await late.stop();
    await expect.poll(() => running.gateway.status().upstreams[1]?.state, { timeout: 30_000 }).toBe('down');
    const refused = await client.callTool('late_echo', { text: 'again' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^The upstream late is not reachable now \(.+\); the gateway keeps trying to reconnect/,
    );

    late = keep(await startUpstreamWith('parley-upstream.mjs', ['http', 'late'], { PORT: String(port) }));
    await expect.poll(() => running.gateway.status().upstreams[1]?.state, { timeout: 40_000 }).toBe('ready');
    expect(textOf(await client.callTool('late_echo', { text: 'back' }))).toBe('back');
  });

  it.each(['2026-07-28', '2025-11-25'] as const)(
    'ends the call with a clear error when a %s upstream dies while its question waits, and frees what it held',
    async (era) => {
      const warehouse: Upstream = keep(await startUpstream('raw-upstream.mjs'));
      const running: RunningGateway = keep(
        await startGateway({ upstreams: { warehouse: { url: warehouse.url, era } } }),
      );
      const client = await connect(running.url, {
        ui: scripted(async () => {
          // The upstream exits 300 ms after it asked.
          await new Promise((resolve) => setTimeout(resolve, 600));
          return { words: 'bye' };
        }),
      });
      stops.push(() => client.close());
      const result = await client.callTool('crash');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/upstream warehouse/);
      expect(running.gateway.status().heldCalls).toBe(0);
    },
  );

  it('refuses to start when two upstreams offer the same resource', async () => {
    const [one, two] = await Promise.all([
      startUpstream('parley-upstream.mjs', 'http', 'desk'),
      startUpstream('parley-upstream.mjs', 'http', 'desk'),
    ]);
    keep(one);
    keep(two);
    const failure = await startGateway({ upstreams: { one: { url: one.url }, two: { url: two.url } } }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(GatewayConfigError);
    expect((failure as GatewayConfigError).problems).toContain(
      'resource "desk://info" of two (also offered by one): give one of the upstreams another name, or leave one of them out',
    );
  });
});

describe('what a host sends that it should not', () => {
  it('answers a held round once: the same request sent again gets the same step, other answers are refused', async () => {
    const desk = keep(await startUpstream('parley-upstream.mjs', 'http'));
    const running = keep(await startGateway({ upstreams: { desk: { url: desk.url, era: '2025-11-25' } } }));
    const call = async (params: Record<string, unknown>) =>
      (await rpc(running.url, 'tools/call', { name: 'book', ...params })).result as Record<string, unknown>;
    const first = await call({});
    expect(first.resultType).toBe('input_required');
    const boxes = {
      inputResponses: { boxes: { action: 'accept', content: { boxes: 2 } } },
      requestState: first.requestState,
    };
    const second = await call(boxes);
    expect(second.inputRequests).toMatchObject({ day: { params: { message: 'The desk asks: Which day?' } } });
    // Sent again (its response was lost, say): the same question, and the upstream is not answered twice.
    const copy = await call(boxes);
    expect(copy.inputRequests).toEqual(second.inputRequests);
    const changed = await call({
      ...boxes,
      inputResponses: { boxes: { action: 'accept', content: { boxes: 3 } } },
    });
    expect(changed.isError).toBe(true);
    expect(textOf(changed)).toBe(
      'Not answered: round 1 of this call was answered already (it is at round 2); a round is answered once.',
    );

    const day = { inputResponses: { day: { action: 'decline' } }, requestState: copy.requestState };
    expect(textOf(await call(day))).toBe('No pickup (decline).');
    expect(textOf(await call(day))).toBe('No pickup (decline).');
    const other = await call({
      ...day,
      inputResponses: { day: { action: 'accept', content: { value: '2027-01-05' } } },
    });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(
      /is gone \(it expired, ended, or was answered already\); call again to start over/,
    );
    expect(running.gateway.status().heldCalls).toBe(0);
  });

  it('asks again when the answers are for a question that was never asked, and refuses a tampered state', async () => {
    const desk = keep(await startUpstream('parley-upstream.mjs', 'http'));
    const running = keep(await startGateway({ upstreams: { desk: { url: desk.url } } }));
    const stray = (
      await rpc(running.url, 'tools/call', {
        name: 'book',
        inputResponses: { never_asked: { action: 'accept', content: { boxes: 3 } } },
      })
    ).result as Record<string, unknown>;
    expect(stray.resultType).toBe('input_required');
    expect(Object.keys(stray.inputRequests as object)).toEqual(['boxes']);
    const tampered = await rpc(running.url, 'tools/call', {
      name: 'book',
      inputResponses: { boxes: { action: 'accept', content: { boxes: 1 } } },
      requestState: `${stray.requestState as string}x`,
    });
    expect(tampered.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });
});

describe('the parley gateway command', () => {
  it('serves a host that spawns it on stdio', async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const desk = keep(await startUpstream('parley-upstream.mjs', 'http'));
    const dir = await mkdtemp(join(tmpdir(), 'parley-gateway-'));
    const config = join(dir, 'gateway.json');
    await writeFile(config, JSON.stringify({ upstreams: { desk: { url: desk.url, era: '2025-11-25' } } }));
    const bin = new URL('../../cli/dist/bin.js', import.meta.url).pathname;
    for (const era of ['modern', 'handshake'] as const) {
      const client = await connect([process.execPath, bin, 'gateway', '--config', config, '--stdio'], {
        ui: scripted({ boxes: { boxes: 1 }, day: { value: '2027-02-02' } }),
        era,
        stderr: 'ignore',
      });
      try {
        expect(textOf(await client.callTool('book'))).toBe('Booked P-1-2027-02-02: 1 box(es) on 2027-02-02.');
      } finally {
        await client.close();
      }
    }
  });
});
