import type { MemoryReading, PendingMemory } from './memory.js';

/** What (f) measured of a pending 2025-era question beneath Parley (see pending-floors.ts). */

/** Heap per held question (or response), read after a full GC in the server process. */
export interface PendingCost {
  /** Held at the second reading, beyond the warm-up ones already held at the first. */
  readonly held: number;
  /** With only the warm-up ones held (so one-time set-up costs stay out of the difference). */
  readonly before: MemoryReading;
  readonly after: MemoryReading;
  readonly heapKbEach: number;
}

/** The floors under a pending 2025-era question (see the table "(f) what a pending … costs"). */
export interface PendingFloors {
  /** A bare node:http server holding one open response (SSE head + one event) per POST. */
  readonly heldResponse: PendingCost;
  /** The raw SDK over stdio: a tool awaiting `ctx.mcpReq.elicitInput`. */
  readonly sdkStdio: PendingCost;
  /** Parley over stdio: `ctx.elicit` on a 2025 session. */
  readonly parleyStdio: PendingCost;
}

/** The floor under one question over HTTP sessions: a held response plus the SDK's pending request. */
export const pendingFloorKb = (floors: PendingFloors): number =>
  floors.heldResponse.heapKbEach + floors.sdkStdio.heapKbEach;

/**
 * Heap per pending question in Parley over HTTP sessions, or `undefined` when fewer than all of them
 * were pending at the reading (asking took longer than the question timeout): the heap then holds
 * fewer questions than it would be divided by, and the figure would flatter.
 */
export function parleyPendingKb(pending: PendingMemory): number | undefined {
  if (pending.pending.handlersRunning !== pending.questions) return undefined;
  return ((pending.pending.heapMb - pending.before.heapMb) * 1024) / pending.questions;
}
