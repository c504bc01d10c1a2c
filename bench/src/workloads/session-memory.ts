/**
 * Workload (f), 2025-era sessions: what one idle session (`initialize` and nothing else) costs the
 * server, the number that sizes the session quotas (issue 15: about 19 KB each before).
 *
 * Counted beyond a few warm-up sessions, as the floors of pending-floors.ts are: the first sessions
 * also pay once for the whole server (modules loaded on first use, code compiled, schemas built on
 * first parse), some 2 MB that 100 sessions would otherwise share as 20 KB each. What the warm-up
 * sessions cost from cold is kept beside it, so that one-time cost stays visible.
 */
import { KeepAlivePoster } from '../load/http-post.js';
import type { ServerProcess } from '../servers/spawn.js';
import type { MemoryReading } from './memory.js';

export interface SessionMemory {
  /** Sessions counted, beyond the warm-up ones. */
  readonly sessions: number;
  /** Sessions opened first, from a server that had served nothing; absent in older results. */
  readonly warmup?: number;
  /** Before any session; absent in older results (where `before` was this reading). */
  readonly cold?: MemoryReading;
  /** With the warm-up sessions open. */
  readonly before: MemoryReading;
  readonly open: MemoryReading;
  /** Heap per session, in KB. */
  readonly heapKbPerSession: number;
  /** Heap per warm-up session from cold, in KB: one-time costs included; absent in older results. */
  readonly coldHeapKbPerSession?: number;
  /** RSS per session, in KB (noisier: the allocator keeps pages). */
  readonly rssKbPerSession: number;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { elicitation: {} },
    clientInfo: { name: 'parley-bench', version: '0.1.0' },
  },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * Opens `warmup` anonymous sessions, reads the memory, opens `sessions` more and reads it again
 * (keep the sum within the anonymous quota: past it, idle sessions are evicted).
 */
export async function measureSessionMemory(
  server: ServerProcess,
  sessions: number,
  warmup: number,
): Promise<SessionMemory> {
  const poster = new KeepAlivePoster(server.url, 8);
  try {
    const read = async () => {
      const { memory } = await server.stats({ gc: true });
      return { rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20, handlersRunning: 0 };
    };
    const openSessions = async (count: number) => {
      for (let i = 0; i < count; i += 8) {
        const replies = await Promise.all(
          Array.from({ length: Math.min(8, count - i) }, () => poster.post(INITIALIZE, HEADERS)),
        );
        const refused = replies.find((reply) => reply.status !== 200);
        if (refused) throw new Error(`${server.kind} refused a session: ${refused.status} ${refused.body}`);
      }
    };
    const cold = await read();
    await openSessions(warmup);
    const before = await read();
    await openSessions(sessions);
    const open = await read();
    return {
      sessions,
      warmup,
      cold,
      before,
      open,
      heapKbPerSession: ((open.heapMb - before.heapMb) * 1024) / sessions,
      coldHeapKbPerSession: ((before.heapMb - cold.heapMb) * 1024) / warmup,
      rssKbPerSession: ((open.rssMb - before.rssMb) * 1024) / sessions,
    };
  } finally {
    poster.close();
  }
}
