/**
 * Workload (f), one 2025-era host with many calls (issue 26): the official SDK client keeps
 * `calls` calls in flight on ONE session, each waiting on a question, against Parley's default
 * limits; then its person answers every question at once. Each call holds its own SSE stream and
 * each answer comes on a connection of its own, so this is what the connection cap must make room
 * for: the server's heap and connections while the calls wait, the most connections open at once
 * while the answers come, how many answers were delivered and how long that took.
 */
import { setMaxListeners } from 'node:events';
import { Client, type ElicitResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ServerProcess } from '../servers/spawn.js';
import { resultText, TOOL } from '../survey.js';
import { type MemoryReading, reading, waitUntil } from './memory.js';

export interface OneHost {
  readonly calls: number;
  readonly before: MemoryReading;
  /** Every call in flight, each with its question pending. */
  readonly held: MemoryReading;
  /** How long starting the calls took until every question was pending. */
  readonly setupMs: number;
  /** Connections open on the server while the calls wait (the streams, and the one that opened the session). */
  readonly heldConnections: number;
  /** The most connections open at once on the server, over the whole workload (the answers included). */
  readonly peakConnections: number;
  /** Calls that completed with their answer. */
  readonly delivered: number;
  /** From the first answer sent to the last call completed. */
  readonly answeredMs: number;
  /** Every call completed, the client gone. */
  readonly after: MemoryReading;
}

export async function measureOneHost(server: ServerProcess, calls: number): Promise<OneHost> {
  // The SDK client adds an abort listener per request to one signal: room for all of them.
  setMaxListeners(calls * 4);
  const before = reading(await server.stats({ gc: true }));
  const answers: ((result: ElicitResult) => void)[] = [];
  const client = new Client(
    { name: 'parley-bench-host', version: '0.1.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(
    'elicitation/create',
    () => new Promise<ElicitResult>((resolve) => answers.push(resolve)),
  );
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  try {
    const started = Date.now();
    const expected = resultText(['answer 1']);
    const results = Array.from({ length: calls }, () =>
      client.callTool({ name: TOOL, arguments: { questions: 1 } }, { timeout: 600_000 }).then(
        (result) => (result.content as { text?: string }[])[0]?.text === expected,
        () => false,
      ),
    );
    const allPending = await waitUntil(server, (running) => running >= calls, 300_000);
    if (allPending === undefined) throw new Error(`only some of ${calls} calls reached their question`);
    const setupMs = Date.now() - started;
    const heldStats = await server.stats({ gc: true });
    const held = reading(heldStats);

    const answering = Date.now();
    for (const answer of answers.splice(0)) answer({ action: 'accept', content: { answer: 'answer 1' } });
    const delivered = (await Promise.all(results)).filter(Boolean).length;
    const answeredMs = Date.now() - answering;
    await transport.terminateSession().catch(() => {});
    await client.close();
    const afterStats = await server.stats({ gc: true });
    return {
      calls,
      before,
      held,
      setupMs,
      heldConnections: heldStats.connections?.open ?? 0,
      peakConnections: afterStats.connections?.peak ?? 0,
      delivered,
      answeredMs,
      after: reading(afterStats),
    };
  } finally {
    await client.close().catch(() => {});
  }
}
