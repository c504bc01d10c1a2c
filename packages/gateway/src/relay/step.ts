import type { Json } from '@parley/server';

/** One question an upstream asks, as MCP carries it: `{ method, params }` (elicitation, sampling, roots). */
export interface UpstreamRequest {
  readonly method: string;
  readonly params?: { readonly [key: string]: Json };
}

/**
 * How the next leg of a call reaches its upstream: a 2026-07-28 upstream's `requestState` (sent
 * back byte for byte; absent when it sent none), or a 2025 upstream's call held open in the
 * gateway (`live`), named by its handle, at the round the next answers are for, with the revision
 * its session speaks (under era `auto` not the upstream's own: a tool that asks only over the
 * handshake is called on a 2025 session of an upstream that offers 2026-07-28).
 */
export type Via =
  | { readonly kind: 'state'; readonly state?: string }
  | { readonly kind: 'live'; readonly handle: string; readonly round: number; readonly revision: string };

/**
 * Where an upstream call stands after one leg: done (`result`), asking (`ask`: its questions by
 * key), or still working with nothing to ask (`wait`: the host is asked to send the call again).
 * JSON, so the gateway's handler journals it (`ctx.once`) and a replayed round reads it back
 * instead of calling the upstream again.
 */
export type Step =
  | { readonly kind: 'result'; readonly result: { readonly [key: string]: Json } }
  | {
      readonly kind: 'ask';
      readonly requests: { readonly [key: string]: UpstreamRequest };
      readonly via: Via;
    }
  | { readonly kind: 'wait'; readonly via: Via }
  /** The upstream made the call a task (the tasks extension): its id; the gateway polls it. */
  | { readonly kind: 'task'; readonly taskId: string; readonly pollIntervalMs?: number };

/** An answer to one upstream question: the result MCP defines for it, or a JSON-RPC error. */
export type UpstreamAnswer =
  | { readonly result: { readonly [key: string]: Json } }
  | { readonly error: { readonly code: number; readonly message: string } };
