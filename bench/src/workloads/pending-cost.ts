import type { MemoryReading } from './memory.js';

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
