import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { ToolError } from '@parley/server';
import type { LiveCall } from '../held/live-call.js';
import { LegacySession } from './legacy-session.js';
import type { Reach } from './reach.js';

/** A 2025 session no call used for this long is closed. */
const IDLE_MS = 5 * 60_000;

interface Lane {
  readonly id: string;
  readonly opening: Promise<LegacySession>;
  /**
   * Set while a call is being started on it (between picking it and the call counting as busy);
   * for good on a session of one call alone.
   */
  claimed: boolean;
}

/**
 * The 2025 sessions one upstream has open for calls, each declaring exactly the capabilities its
 * caller's host declared, and each serving one call at a time: the 2025 wire does not say which
 * call a server request belongs to (over stdio nothing does; over HTTP only the stream it came on,
 * which the SDK does not tell), so a session with one call in flight attributes every question
 * without guessing. A caller (a host session, a user) with calls in flight at once gets a session
 * per call ("lanes" of the same key); idle ones are closed. A call of no caller (no key) gets a
 * session of its own, closed as soon as the call ends.
 */
export class SessionPool {
  readonly #reach: Reach;
  readonly #options: {
    readonly clientInfo: { name: string; version: string };
    readonly protocolVersions: readonly string[];
  };
  readonly #limit: number;
  readonly #upstream: string;
  readonly #failure: (error: unknown) => unknown;
  readonly #lanes = new Map<string, Lane[]>();
  readonly #sweeper: NodeJS.Timeout;
  #alone = 0;

  constructor(options: {
    readonly upstream: string;
    readonly reach: Reach;
    readonly clientInfo: { name: string; version: string };
    readonly protocolVersions: readonly string[];
    /** Sessions (for stdio, processes) open at once. */
    readonly limit: number;
    /** What a failure to open a session tells the host. */
    readonly failure: (error: unknown) => unknown;
  }) {
    this.#upstream = options.upstream;
    this.#reach = options.reach;
    this.#options = { clientInfo: options.clientInfo, protocolVersions: options.protocolVersions };
    this.#limit = options.limit;
    this.#failure = options.failure;
    this.#sweeper = setInterval(() => this.#closeIdle(), 30_000);
    this.#sweeper.unref();
  }

  /** Sessions open (or opening). */
  get size(): number {
    let count = 0;
    for (const lanes of this.#lanes.values()) count += lanes.length;
    return count;
  }

  /**
   * Starts a call on a free session of `key` that declares `capabilities`, opening one if none is
   * free; with no key, on a session of its own that closes when the call ends.
   */
  async start(
    key: string | undefined,
    capabilities: ClientCapabilities,
    method: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<LiveCall> {
    if (key === undefined) {
      const lane = this.#open(`\0${++this.#alone}`, capabilities);
      lane.claimed = true;
      return (await lane.opening).start(method, params, { last: true });
    }
    const id = `${key}\0${JSON.stringify(capabilities)}`;
    const lanes = this.#lanes.get(id) ?? [];
    for (const lane of lanes) {
      if (lane.claimed) continue;
      lane.claimed = true;
      const session = await lane.opening.catch(() => undefined);
      if (session !== undefined && !session.closed && session.busy === 0) {
        lane.claimed = false;
        return session.start(method, params);
      }
      lane.claimed = false;
    }
    const lane = this.#open(id, capabilities);
    lane.claimed = true;
    const session = await lane.opening;
    lane.claimed = false;
    return session.start(method, params);
  }

  /** Closes every session (their upstream went away); the pool opens new ones when asked. */
  async closeAll(): Promise<void> {
    const all = [...this.#lanes.values()].flat();
    this.#lanes.clear();
    await Promise.all(all.map((lane) => lane.opening.then((session) => session.close()).catch(() => {})));
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.closeAll();
  }

  #open(id: string, capabilities: ClientCapabilities): Lane {
    if (this.size >= this.#limit)
      throw new ToolError(
        `The upstream ${this.#upstream} has ${this.#limit} sessions open for calls, its limit; try again when a call ends.`,
      );
    const opening = LegacySession.open(
      this.#reach.target,
      {
        ...this.#reach.options,
        ...this.#options,
        ...(this.#reach.request !== undefined && { request: this.#reach.request }),
      },
      capabilities,
    ).catch((error: unknown) => {
      throw this.#failure(error);
    });
    const lane: Lane = { id, opening, claimed: false };
    const lanes = this.#lanes.get(id) ?? [];
    lanes.push(lane);
    this.#lanes.set(id, lanes);
    opening.then(
      (session) => {
        session.onclose = () => this.#drop(lane);
      },
      () => this.#drop(lane),
    );
    return lane;
  }

  #drop(lane: Lane): void {
    const lanes = this.#lanes.get(lane.id);
    if (lanes === undefined) return;
    const left = lanes.filter((other) => other !== lane);
    if (left.length === 0) this.#lanes.delete(lane.id);
    else this.#lanes.set(lane.id, left);
  }

  #closeIdle(): void {
    const now = Date.now();
    for (const lanes of this.#lanes.values()) {
      for (const lane of lanes) {
        void lane.opening
          .then((session) => {
            if (lane.claimed || session.busy > 0 || now - session.lastUsed < IDLE_MS) return;
            this.#drop(lane);
            return session.close();
          })
          .catch(() => {});
      }
    }
  }
}
