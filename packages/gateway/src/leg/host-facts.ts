import type { ClientCapabilities } from '@modelcontextprotocol/client';

/** Who a held call belongs to: the host's verified user, or nobody (the handle is then the capability). */
export type Owner = string | undefined;

/** What the host side of a call wants to hear while the upstream call is open (per round on 2026-07-28). */
export interface LiveListeners {
  progress?(params: { progress: number; total?: number; message?: string }): void;
  log?(params: { level: string; data: unknown; logger?: string }): void;
  /** A URL question's flow finished (2025-11-25 `notifications/elicitation/complete`), by the upstream's id. */
  urlComplete?(upstreamElicitationId: string): void;
}

/**
 * What one run of the gateway's handler knows of the host, as the upstream leg needs it: the
 * capabilities to tell the upstream, whose call it is, and where the upstream's progress and logs
 * go while this run serves the call.
 */
export interface HostFacts {
  /** What the upstream is told the client can do (see `upstreamCapabilities`). */
  readonly capabilities: ClientCapabilities;
  /**
   * Which 2025 sessions of an upstream serve this caller: those of the host's own session, of its
   * user, or of the stdio host; `undefined` (an anonymous 2026-07-28 host over HTTP, whose calls
   * nothing ties together) a session of this call alone, closed as soon as the call ends.
   */
  readonly sessionKey: string | undefined;
  /** The host's verified user (a parked call answers only them). */
  readonly owner: Owner;
  /** The host request's own `_meta` entries that travel on (trace context, application keys). */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The log level the host asked for on this request (2026-07-28), if any. */
  readonly logLevel: string | undefined;
  /** How long a leg may wait on an upstream with nothing new before answering `wait` (2026-07-28 hosts). */
  readonly holdMs: number;
  /** Whether the host asked for progress on this request (a direct leg then asks the upstream for it). */
  readonly progress?: boolean;
  /** Aborts when the host cancels. */
  readonly signal: AbortSignal;
  readonly listeners: LiveListeners;
}
