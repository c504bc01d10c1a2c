import type { Json } from '../state/round-state.js';

/** Where a flow stands. Only `pending` flows can be opened or settled. */
export type FlowStatus = 'pending' | 'done' | 'failed' | 'cancelled';

/** One URL flow: a page the person must visit, bound to the user who triggered it. */
export interface FlowRecord {
  /** Opaque and unguessable (32 random bytes); the only thing the URL carries. */
  readonly id: string;
  /** The flow page that serves it (registered with `server.flow(kind, page)`). */
  readonly kind: string;
  /**
   * The verified user who made the call; only this user's browser session may open the page. For a
   * capability flow, the scope it counts against (the stdio user, a session, `anonymous`).
   */
  readonly principal: string;
  /**
   * The link itself is the capability: whoever holds it may open the page, no sign-in checked. Only
   * for calls with no verified user to check (stdio, anonymous HTTP); see the server README.
   */
  readonly capability?: true;
  /** The server that created it; another server's flow id is refused. */
  readonly server: string;
  /** What the page may need (never secrets: the store is not a vault). */
  readonly data: Json;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly status: FlowStatus;
  /** What the page completed the flow with (status `done`). */
  readonly result?: Json;
  /** Why the page failed the flow (status `failed`). */
  readonly reason?: string;
}

/** How a flow ended. */
export type FlowSettlement =
  | { readonly status: 'done'; readonly result: Json }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'cancelled' };

/**
 * Where flows live between the call that creates them, the page that completes them, and the
 * retry that reads them. One store must be shared by every replica of a fleet.
 */
export interface FlowStore {
  /**
   * Saves a new pending flow; it disappears (or reads as expired) after `expiresAt`. Returns false
   * (and saves nothing) when the flow's user already has `maxPendingPerUser` pending, unexpired
   * flows, or holds `maxKeptPerUser` flows in all (pending, or settled or expired and still kept so
   * their links read as used); the checks and the save are one atomic step.
   */
  create(flow: FlowRecord, maxPendingPerUser?: number, maxKeptPerUser?: number): Promise<boolean>;
  /** The flow, or `undefined` when there is none (never created, or gone after expiry). */
  get(id: string): Promise<FlowRecord | undefined>;
  /**
   * Settles a pending flow, atomically: returns false (and changes nothing) when the flow is not
   * pending any more or does not exist, so a flow completes at most once. A settled flow keeps no
   * `data` (it reads as `null`): only its status and result are read after it.
   */
  settle(id: string, settlement: FlowSettlement): Promise<boolean>;
  /**
   * Settles a pending flow as {@link settle} does and, only when that settlement wins, keeps `kept`
   * too, in one atomic step: of racing answers to a page, the value kept is the one that counts.
   * Optional; without it the value is kept right after the settlement, and a reader in between finds
   * the flow settled but no value yet.
   */
  settleKeeping?(id: string, settlement: FlowSettlement, kept: KeptValue): Promise<boolean>;
  /**
   * Keeps a small value under `key` until `expiresAt` (ms since epoch), replacing any value there:
   * question pages keep parked calls and sealed answers with it. Optional, for stores written before
   * question pages; without it, questions that need it (a call parked for a client that cannot be
   * asked, a secret) cannot be asked.
   */
  putValue?(key: string, value: string, expiresAt: number): Promise<void>;
  /** The value kept under `key`, or `undefined` (never kept, deleted, or expired). */
  getValue?(key: string): Promise<string | undefined>;
  /** Deletes the value under `key` (nothing when there is none). */
  deleteValue?(key: string): Promise<void>;
  /**
   * Reads and deletes the value under `key` in one atomic step, so of racing readers one gets it.
   * Optional; without it a parked call is read, then deleted, and retries racing in between may
   * each resume it.
   */
  takeValue?(key: string): Promise<string | undefined>;
}

/** A value kept with a settlement ({@link FlowStore.settleKeeping}). */
export interface KeptValue {
  readonly key: string;
  readonly value: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}
