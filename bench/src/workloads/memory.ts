/**
 * Workload (f): what a server holds. Modern flows hold nothing between rounds (the state travels
 * with the client), so 10,000 flows in flight should not grow the server. 2025-era questions do
 * hold a live request each; they must stay bounded and be released on timeout or disconnect.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IdSource, parseReply } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import { openingRequest, REQUEST_HEADERS, retryRequest } from '../load/messages.js';
import type { ServerStats } from '../servers/side-channel.js';
import type { StatsSource } from '../servers/side-channel-client.js';
import type { ServerProcess } from '../servers/spawn.js';
import { TOOL } from '../survey.js';

/** A memory reading after a full GC in the server. */
export interface MemoryReading {
  readonly rssMb: number;
  readonly heapMb: number;
  readonly handlersRunning: number;
}

/** A memory reading from the server's stats. */
export const reading = (stats: ServerStats): MemoryReading => ({
  rssMb: stats.memory.rss / 2 ** 20,
  heapMb: stats.memory.heapUsed / 2 ** 20,
  handlersRunning: stats.handlersRunning,
});

export interface ModernMemory {
  readonly flows: number;
  readonly before: MemoryReading;
  /** Every flow has had its first round and waits for its answer. */
  readonly inFlight: MemoryReading;
  /** Every flow answered and complete. */
  readonly after: MemoryReading;
}

async function inBatches<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Opens `flows` one-question flows, reads the server's memory, then completes them all. */
export async function measureModernMemory(server: ServerProcess, flows: number): Promise<ModernMemory> {
  const poster = new KeepAlivePoster(server.url, 32);
  const ids = new IdSource();
  try {
    const before = reading(await server.stats({ gc: true }));
    const states: string[] = new Array(flows);
    const indexes = Array.from({ length: flows }, (_, i) => i);
    await inBatches(indexes, 32, async (i) => {
      const reply = parseReply((await poster.post(openingRequest(ids.next(), 1), REQUEST_HEADERS)).body);
      const state = reply?.result?.requestState;
      if (typeof state !== 'string') throw new Error(`${server.kind} did not open flow ${i}.`);
      states[i] = state;
    });
    const inFlight = reading(await server.stats({ gc: true }));
    await inBatches(indexes, 32, async (i) => {
      const reply = parseReply(
        (await poster.post(retryRequest(ids.next(), 1, 0, states[i]!), REQUEST_HEADERS)).body,
      );
      if (reply?.result?.resultType !== 'complete')
        throw new Error(`${server.kind} did not finish flow ${i}.`);
    });
    const after = reading(await server.stats({ gc: true }));
    return { flows, before, inFlight, after };
  } finally {
    poster.close();
  }
}

/** A reading after some event, and how long the server took to let go of the questions. */
export interface Release extends MemoryReading {
  /** From the event to no question waiting, in ms; `undefined` if some were still waiting at the deadline. */
  readonly releasedInMs: number | undefined;
}

export interface PendingMemory {
  readonly questions: number;
  /**
   * Questions asked and answered on one session before the first reading (then the session ended),
   * so one-time costs (code compiled, schemas built on first use) stay out of `pending - before`,
   * as the floors' warm-up keeps them out of theirs; absent in older results (none).
   */
  readonly warmup?: number;
  readonly timeoutMs: number;
  /** How long the server lets a dropped call wait for its client to reconnect before cancelling it. */
  readonly resumeGraceMs: number;
  readonly before: MemoryReading;
  /** How long asking every question took (it must stay well under the timeout). */
  readonly setupMs: number;
  /** Every question asked and unanswered. */
  readonly pending: MemoryReading;
  /** Released by the server's question timeout (measured from when the last question was asked). */
  readonly afterTimeout: Release;
  /** Pending again, then every client ended its session (HTTP DELETE). */
  readonly afterSessionEnd: Release;
  /** Pending again, then every client dropped its connections without ending its session. */
  readonly afterDrop: Release;
}

export interface SilentSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly calls: Promise<unknown>[];
}

/** Opens a 2025-era session whose person never answers, and starts `calls` one-question calls. */
export async function silentSession(
  url: string,
  calls: number,
  callTimeoutMs: number,
): Promise<SilentSession> {
  const client = new Client(
    { name: 'parley-bench', version: '0.1.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler('elicitation/create', () => new Promise<never>(() => {}));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const started = Array.from({ length: calls }, () =>
    client.callTool({ name: TOOL, arguments: { questions: 1 } }, { timeout: callTimeoutMs }).catch(() => {}),
  );
  return { client, transport, calls: started };
}

/** Asks and answers `calls` one-question calls on one session, then ends it. */
export async function answeredSession(url: string, calls: number): Promise<void> {
  const client = new Client(
    { name: 'parley-bench', version: '0.1.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept' as const,
    content: { answer: 'warm-up' },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  try {
    await Promise.all(
      Array.from({ length: calls }, () => client.callTool({ name: TOOL, arguments: { questions: 1 } })),
    );
    await transport.terminateSession();
  } finally {
    await client.close();
  }
}

/** Polls until `done(handlersRunning)` or the deadline; answers the time it took, or `undefined`. */
export async function waitUntil(
  server: StatsSource,
  done: (running: number) => boolean,
  limitMs: number,
): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    if (done((await server.stats()).handlersRunning)) return Date.now() - started;
    if (Date.now() - started > limitMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Holds `sessions × perSession` 2025-era questions open on a server started with a question
 * timeout of `timeoutMs` (and a resume grace of `resumeGraceMs`), and reads its memory while they
 * wait, after they time out, after the clients end their sessions, and after the clients simply
 * drop their connections (released once the grace is over). Stop the server afterwards: questions
 * a dropped connection left behind may still be waiting. First, `warmup` questions are asked and
 * answered on a session of their own, which then ends.
 */
export async function measurePendingMemory(
  server: ServerProcess,
  sessions: number,
  perSession: number,
  timeoutMs: number,
  resumeGraceMs: number,
  warmup: number,
): Promise<PendingMemory> {
  const questions = sessions * perSession;
  const allWaiting = (running: number) => running >= questions;
  const noneWaiting = (running: number) => running === 0;
  const open = async () => {
    const held = await Promise.all(
      Array.from({ length: sessions }, () => silentSession(server.url, perSession, timeoutMs * 4)),
    );
    await waitUntil(server, allWaiting, timeoutMs * 0.9);
    return held;
  };
  const release = async (event: () => Promise<unknown>, limitMs: number): Promise<Release> => {
    await event();
    const releasedInMs = await waitUntil(server, noneWaiting, limitMs);
    return { ...reading(await server.stats({ gc: true })), releasedInMs };
  };
  await answeredSession(server.url, warmup);
  const before = reading(await server.stats({ gc: true }));

  const setupStarted = Date.now();
  let held = await open();
  const setupMs = Date.now() - setupStarted;
  const pending = reading(await server.stats({ gc: true }));
  const afterTimeout = await release(async () => {}, timeoutMs * 2);
  await Promise.all(held.flatMap((session) => session.calls));
  await Promise.all(held.map((session) => session.client.close()));

  held = await open();
  const afterSessionEnd = await release(
    () => Promise.all(held.map((session) => session.transport.terminateSession())),
    timeoutMs / 2,
  );
  await Promise.all(held.map((session) => session.client.close()));

  held = await open();
  // Whatever a drop leaves waiting is ended by the caller (it stops this server next).
  const afterDrop = await release(
    () => Promise.all(held.map((session) => session.client.close())),
    resumeGraceMs + timeoutMs / 2,
  );

  return {
    questions,
    warmup,
    timeoutMs,
    resumeGraceMs,
    before,
    setupMs,
    pending,
    afterTimeout,
    afterSessionEnd,
    afterDrop,
  };
}
