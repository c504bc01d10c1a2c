import type { SealSecret } from '@parley/core/seal';
import type { Logger } from '../log.js';

/**
 * What a fleet needs to serve a 2025-era session from any replica: the session lives in the one
 * process whose handler is suspended on the client's answer, so a request for it that reaches
 * another replica is passed to that one. `@parley/server/redis` has one on Redis
 * (`RedisSessionRouter`); this interface keeps the root entry free of any Redis client.
 */
export interface SessionRouter {
  /**
   * Called once by the endpoint that uses the router: `host` serves requests passed here from other
   * replicas, and lists the sessions this replica holds (to register them again, e.g. after the
   * shared store restarted empty).
   */
  attach(host: SessionHost): void;
  /** A session opened here; other replicas may now pass its requests here. */
  opened(session: Omit<SessionRecord, 'owner'>): Promise<void>;
  /** A request for a session held here arrived (keeps its record alive; cheap to call often). */
  touched(sessionId: string): void;
  /** A session held here ended. */
  closed(sessionId: string): Promise<void>;
  /**
   * Passes a request for a session this replica does not hold to the replica that does, and returns
   * that replica's response (streamed). `not-found`: no such session for this principal; `gone`:
   * the replica that held it stopped; `unreachable`: the sessions' store or the owner could not be
   * reached in time (the request may be tried again).
   */
  forward(
    sessionId: string,
    request: Request,
    principal: string | undefined,
  ): Promise<Response | 'not-found' | 'gone' | 'unreachable'>;
  /** Stops passing requests, unregisters this replica and lets go of its connections. */
  close(): Promise<void>;
  /**
   * Requests in progress through the router: passed from here to another replica, or served here
   * for another. A stopping server waits for them to end (`close({ drainMs })`) before `close()`.
   */
  readonly inFlight?: number;
}

/** One 2025-era session as the fleet knows it. */
export interface SessionRecord {
  readonly id: string;
  /** The replica that holds it (its handlers, its streams). */
  readonly owner: string;
  /** The verified user who opened it, or `undefined` (anonymous). */
  readonly principal: string | undefined;
  /** The protocol revision the session negotiated. */
  readonly protocolVersion: string | undefined;
  /** The client's capabilities from `initialize`. */
  readonly capabilities: unknown;
  /** When it lapses unless used (ms since the epoch). */
  readonly expiresAt: number;
}

/** The endpoint, as a router sees it. */
export interface SessionHost {
  /** Serves a request passed from another replica (never passed on again). */
  serve(request: Request): Promise<Response>;
  /** The sessions this replica holds now, without their owner (the router adds its own id). */
  sessions(): Omit<SessionRecord, 'owner'>[];
  /** How long a session may sit idle before it is closed, in ms. */
  readonly idleMs: number;
  /**
   * The key ring the server seals `requestState` with, when it was given one (`state.keys` or
   * `PARLEY_STATE_KEYS`, the same on every replica of a fleet); `undefined` when it seals with a
   * random key of this process only. A router seals what it passes between replicas with keys
   * derived from it.
   */
  readonly stateKeys?: readonly SealSecret[];
  /** The server's logger. */
  readonly log?: Logger;
}
