/**
 * Workload (f), 2025-era sessions: what one idle session (`initialize` and nothing else) costs the
 * server, the number that sizes the session quotas (issue 15: about 19 KB each before).
 */
import { KeepAlivePoster } from '../load/http-post.js';
import type { ServerProcess } from '../servers/spawn.js';
import type { MemoryReading } from './memory.js';

export interface SessionMemory {
  readonly sessions: number;
  readonly before: MemoryReading;
  readonly open: MemoryReading;
  /** Heap per session, in KB. */
  readonly heapKbPerSession: number;
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

/** Opens `sessions` anonymous sessions (keep it within the anonymous quota) and reads the memory. */
export async function measureSessionMemory(server: ServerProcess, sessions: number): Promise<SessionMemory> {
  const poster = new KeepAlivePoster(server.url, 8);
  try {
    const read = async () => {
      const { memory } = await server.stats({ gc: true });
      return { rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20, handlersRunning: 0 };
    };
    const before = await read();
    for (let i = 0; i < sessions; i += 8) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(8, sessions - i) }, () => poster.post(INITIALIZE, HEADERS)),
      );
      const refused = replies.find((reply) => reply.status !== 200);
      if (refused) throw new Error(`${server.kind} refused a session: ${refused.status} ${refused.body}`);
    }
    const open = await read();
    return {
      sessions,
      before,
      open,
      heapKbPerSession: ((open.heapMb - before.heapMb) * 1024) / sessions,
      rssKbPerSession: ((open.rssMb - before.rssMb) * 1024) / sessions,
    };
  } finally {
    poster.close();
  }
}
