/**
 * The memory guard CI runs (`npm run bench:memory`, from `.ci/run`): four of the bench's memory rows,
 * measured short on this build's Parley bench server (and gateway), each against a generous bound, so
 * a change that makes a pending 2025-era question, an idle session, a round's garbage or a call
 * parked in the gateway cost much more fails
 * CI instead of hiding until the next full bench. It prints each figure beside its bound, and exits 1
 * when one is over.
 *
 *   npm run bench:memory
 *   npm run bench:memory -- --base ../parley-at-main   # the same rows for another built checkout
 *
 * Heap figures are read after a full GC in the server and counted beyond warm-up questions and
 * sessions, as (f) counts them; they hardly move with the machine's load. Promoted bytes per
 * scavenge are `bench:gc`'s figure for (a) at concurrency 16 (within about 4% between processes of
 * the same code). Speed is not guarded here: it is measured in the bench, interleaved, never against
 * a fixed bound.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measurePromoted } from './profile/promoted.js';
import { SERVER_MAIN, ServerProcess } from './servers/spawn.js';
import { answeredSession, reading, silentSession, waitUntil } from './workloads/memory.js';
import { measureParkedCalls } from './workloads/parked-calls.js';
import { measureSessionMemory } from './workloads/session-memory.js';

/**
 * The bounds: about 1.25× what the published bench read (a pending question 16.5 KB, an idle
 * session 11.3 KB, 1,132 KB promoted per scavenge at c16, a parked call 32.2 KB), so only a real
 * regression crosses them.
 */
export const MEMORY_BOUNDS = {
  pendingQuestionKb: 20,
  idleSessionKb: 14,
  promotedKb: 1_450,
  parkedCallKb: 40,
} as const;

const { values } = parseArgs({ options: { base: { type: 'string' } } });

/** One guarded figure. */
interface Row {
  readonly name: string;
  readonly value: number;
  readonly bound: number;
  readonly unit: string;
  readonly detail: string;
}

const SESSIONS = 4;
const PER_SESSION = 100;
const WARMUP_QUESTIONS = 50;
const QUESTION_TIMEOUT_MS = 60_000;

/** Heap per pending 2025-era question over HTTP sessions: 4 sessions × 100 calls, beyond 50 answered first. */
async function pendingQuestionKb(main: string): Promise<Row> {
  const server = await ServerProcess.start('parley', {
    main,
    env: { BENCH_QUESTION_TIMEOUT_MS: String(QUESTION_TIMEOUT_MS) },
  });
  try {
    const questions = SESSIONS * PER_SESSION;
    await answeredSession(server.url, WARMUP_QUESTIONS);
    const before = reading(await server.stats({ gc: true }));
    const held = await Promise.all(
      Array.from({ length: SESSIONS }, () => silentSession(server.url, PER_SESSION, QUESTION_TIMEOUT_MS * 2)),
    );
    const waited = await waitUntil(server, (running) => running >= questions, QUESTION_TIMEOUT_MS / 2);
    if (waited === undefined) throw new Error(`Fewer than ${questions} questions were pending in time.`);
    const pending = reading(await server.stats({ gc: true }));
    await Promise.all(held.map((session) => session.client.close()));
    const value = ((pending.heapMb - before.heapMb) * 1024) / questions;
    const detail = `${questions} pending on ${SESSIONS} sessions`;
    return {
      name: 'pending 2025-era question',
      value,
      bound: MEMORY_BOUNDS.pendingQuestionKb,
      unit: 'KB',
      detail,
    };
  } finally {
    await server.stop();
  }
}

/** Heap per idle 2025-era session: 80 counted beyond 20 opened first. */
async function idleSessionKb(main: string): Promise<Row> {
  const server = await ServerProcess.start('parley', { main });
  try {
    const memory = await measureSessionMemory(server, 80, 20);
    const detail = `${memory.sessions} sessions`;
    const bound = MEMORY_BOUNDS.idleSessionKb;
    return { name: 'idle 2025-era session', value: memory.heapKbPerSession, bound, unit: 'KB', detail };
  } finally {
    await server.stop();
  }
}

/** Bytes promoted to the old generation per scavenge while (a) runs at concurrency 16. */
async function promotedKb(main: string, label: string): Promise<Row> {
  const read = await measurePromoted(main, label, {
    questions: 1,
    concurrency: 16,
    warmMs: 3000,
    measuredMs: 4000,
  });
  const detail = `(a) c16, ${read.scavenges} scavenges, ${(read.rounds / read.scavenges).toFixed(0)} rounds each`;
  return {
    name: 'promoted per scavenge',
    value: read.promotedBytes / 1024,
    bound: MEMORY_BOUNDS.promotedKb,
    unit: 'KB',
    detail,
  };
}

/** Heap per call parked in the gateway (a 2025 upstream's call held while a 2026-07-28 host answers): 200 beyond 50. */
async function parkedCallKb(main: string): Promise<Row> {
  const upstream = await ServerProcess.start('parley', {
    main,
    env: { BENCH_MAX_SESSIONS: '1000', BENCH_QUESTION_TIMEOUT_MS: '600000' },
  });
  const gateway = await ServerProcess.start('gateway', {
    main,
    env: { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_ERA: '2025-11-25' },
  });
  try {
    const parked = await measureParkedCalls(gateway, upstream, 200, 50);
    const bound = MEMORY_BOUNDS.parkedCallKb;
    const detail = '200 parked beyond 50, in the gateway';
    return {
      name: 'call parked in the gateway',
      value: parked.gateway.heapKbEach,
      bound,
      unit: 'KB',
      detail,
    };
  } finally {
    await Promise.all([gateway.stop(), upstream.stop()]);
  }
}

/** Measures the four rows of one build and prints them; answers how many are over their bound. */
async function guard(label: string, main: string): Promise<{ passed: number; failed: number }> {
  console.log(`memory guard, ${label} (Parley bench server; heap after a full GC):`);
  const rows = [
    await pendingQuestionKb(main),
    await idleSessionKb(main),
    await promotedKb(main, label),
    await parkedCallKb(main),
  ];
  let failed = 0;
  for (const row of rows) {
    const over = row.value > row.bound;
    if (over) failed++;
    console.log(
      `  ${row.name.padEnd(26)} ${row.value.toFixed(1).padStart(8)} ${row.unit}  bound ${String(row.bound).padStart(5)} ${row.unit}  ${over ? 'OVER' : 'ok'}  (${row.detail})`,
    );
  }
  return { passed: rows.length - failed, failed };
}

const mine = await guard('this build', SERVER_MAIN);
if (values.base) await guard('base', join(resolve(values.base), 'bench', 'dist', 'servers', 'main.js'));
console.log(`${mine.passed} passed, ${mine.failed} failed`);
process.exitCode = mine.failed > 0 ? 1 : 0;
