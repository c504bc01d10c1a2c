/**
 * Workload (f), what a pending 2025-era question costs beneath Parley: the same count held open
 * on a bare node:http server (one held response each), on the raw SDK over stdio (a tool awaiting
 * `elicitInput`), and on Parley over stdio. Read against Parley over HTTP sessions (memory.ts),
 * these separate what HTTP costs from what the protocol costs, and what Parley adds to both.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Client, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SideChannelClient, type StatsSource } from '../servers/side-channel-client.js';
import { SERVER_MAIN, type ServerProcess } from '../servers/spawn.js';
import type { SideChannelAnnouncement } from '../servers/stdio-side-channel.js';
import { TOOL } from '../survey.js';
import { reading, waitUntil } from './memory.js';
import type { PendingCost } from './pending-cost.js';

/** Held before the first reading: one-time costs (compiled schemas, pools) land there. */
export const WARMUP_HELD = 50;
const SETTLE_LIMIT_MS = 30_000;
const HOLD_BATCH = 50;

/** Holds `warmup`, reads, holds `held` more, reads: the heap difference per held one. */
async function costOf(
  label: string,
  server: StatsSource,
  hold: (count: number) => void,
  held: number,
  warmup: number,
): Promise<PendingCost> {
  let holding = 0;
  // Holds `count` more, in batches the server takes in before the next (so no pipe or socket
  // backs up), and reads its heap after a full GC.
  const holdMore = async (count: number) => {
    for (let batch = 0; batch < count; batch += HOLD_BATCH) {
      const size = Math.min(HOLD_BATCH, count - batch);
      hold(size);
      holding += size;
      const took = await waitUntil(server, (running) => running >= holding, SETTLE_LIMIT_MS);
      if (took === undefined)
        throw new Error(`${label}: fewer than ${holding} held after ${SETTLE_LIMIT_MS} ms.`);
    }
    return reading(await server.stats({ gc: true }));
  };
  const before = await holdMore(warmup);
  const after = await holdMore(held);
  return { held, before, after, heapKbEach: ((after.heapMb - before.heapMb) * 1024) / held };
}

const HELD_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: TOOL, arguments: { questions: 1 } },
});

/**
 * The headers of a 2025-era client's POST on its session, as the official SDK client sends them
 * (its session and protocol headers, and what `fetch` adds): the floor holds the same request as
 * Parley does, since node:http keeps a held request's headers (some 0.6 KB more than a bare POST's).
 */
const HELD_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-session-id': randomUUID(),
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
  'content-length': String(Buffer.byteLength(HELD_BODY)),
};

/**
 * Heap per held HTTP/1.1 response on the bare floor (`POST /held`, each on its own connection,
 * as a 2025 client's POST stays open while its question waits). Stop the server afterwards.
 */
export async function measureHeldResponses(
  floor: ServerProcess,
  held: number,
  warmup = WARMUP_HELD,
): Promise<PendingCost> {
  const url = new URL('/held', floor.url);
  const open: ReturnType<typeof request>[] = [];
  const hold = (count: number) => {
    for (let i = 0; i < count; i++) {
      const req = request(url, { method: 'POST', agent: false, headers: HELD_HEADERS });
      req.on('response', (res) => res.resume());
      // Ended by destroy() below; until then an error means the floor let go too early.
      req.on('error', () => {});
      req.end(HELD_BODY);
      open.push(req);
    }
  };
  try {
    return await costOf('bare floor (held responses)', floor, hold, held, warmup);
  } finally {
    for (const req of open) req.destroy();
  }
}

/** The side-channel URL a stdio server announces on stderr, or an error after `limitMs`. */
function announcedSideChannel(stderr: Readable, label: string, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stderr });
    const timer = setTimeout(() => {
      reject(new Error(`${label} announced no side channel on stderr within ${limitMs} ms.`));
    }, limitMs);
    // Keep reading after the announcement: a stdio server that logs must never block on stderr.
    lines.on('line', (line) => {
      if (!line.startsWith('{"sideChannel"')) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as SideChannelAnnouncement).sideChannel);
    });
  });
}

/** Which stdio server: Parley's survey, or the raw SDK's 2025-style one (servers/sdk-push.ts). */
export type StdioPendingKind = 'parley' | 'sdk-push';

/**
 * Heap per pending question over stdio: a 2025-era SDK client (the server spawned with
 * `BENCH_SIDE_CHANNEL=1`) starts one-question calls and never answers their `elicitation/create`.
 */
export async function measureStdioPending(
  kind: StdioPendingKind,
  held: number,
  options: { warmup?: number; main?: string } = {},
): Promise<PendingCost> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--expose-gc', options.main ?? SERVER_MAIN, kind, 'stdio'],
    env: { BENCH_SIDE_CHANNEL: '1', BENCH_QUESTION_TIMEOUT_MS: '600000' },
    stderr: 'pipe',
  });
  const label = `${kind} (stdio)`;
  const announced = announcedSideChannel(transport.stderr as Readable, label, 15_000);
  const client = new Client(
    { name: 'parley-bench', version: '0.1.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler('elicitation/create', () => new Promise<never>(() => {}));
  try {
    await client.connect(transport);
    const server = new SideChannelClient(await announced, label);
    const hold = (count: number) => {
      for (let i = 0; i < count; i++)
        client.callTool({ name: TOOL, arguments: { questions: 1 } }, { timeout: 600_000 }).catch(() => {});
    };
    return await costOf(label, server, hold, held, options.warmup ?? WARMUP_HELD);
  } finally {
    await client.close().catch(() => {});
  }
}
