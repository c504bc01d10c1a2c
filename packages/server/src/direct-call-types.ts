import type { HostProfile } from '@parley/core/hosts';
import type { Json } from './state/round-state.js';

/**
 * One 2026-07-28 `tools/call` over HTTP, offered to the handler of `server.directToolCalls` after
 * the endpoint's checks (Host and Origin, authentication, `authorize`, the body, the SDK's inbound
 * ladder, the standard headers) and before any tool handler runs.
 */
export interface DirectToolCall {
  /** The tool's name, as the client called it. */
  readonly name: string;
  /** The request's `params` as received: `arguments`, `_meta`, `inputResponses`. */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * What the handler handed on with the call's last round (the `state` of its `inputRequests`
   * outcome), opened and checked: sealed with the server's state keys, bound to this server, tool,
   * arguments and user, and not expired. `undefined` on a call's first round.
   */
  readonly state: Json | undefined;
  /** The verified caller (`ctx.user.id`), or `undefined` when anonymous. */
  readonly principal: string | undefined;
  readonly protocolVersion: string;
  /** What the client declared on this request. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Whether the client declared what a kind of question needs (`'form'`, `'url'`, `'sampling'`, `'roots'`), as `ctx.can` tells. */
  can(kind: string): boolean;
  /**
   * The host profile that knows this client (`createServer({ hosts })`), if one does: Parley lowers
   * a form for it (`lowerForm` of `@parley/core/hosts`) and raises its answers, so a handler that
   * passes forms on does the same.
   */
  readonly host: HostProfile | undefined;
  /** Aborted when the client goes away before the response ended. */
  readonly signal: AbortSignal;
  /** Sends a notification on this request's response (it becomes an event stream, for a client that reads one). */
  notify(method: string, params: Record<string, unknown>): void;
}

/**
 * What a direct tool call answers: a result (`resultType: 'complete'` is added); input required,
 * with the questions and the JSON the next round gets back as `state` (sealed here into the
 * `requestState`); a JSON-RPC error; or `serve`: the server serves the call as usual after all, as
 * a fresh call (without `requestState` and `inputResponses`), its `_meta` given `meta` on top.
 */
export type DirectToolOutcome =
  | { readonly result: Record<string, unknown> }
  | { readonly inputRequests?: Record<string, unknown>; readonly state: Json }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: Json } }
  | { readonly serve: { readonly meta?: Record<string, Json> } };

/**
 * Serves some 2026-07-28 tool calls over HTTP itself, before Parley's own handling (the SDK's
 * server, the tool's handler): for a server that passes calls on (a gateway). Return `undefined`
 * to have the call served as usual, as it came (a round carrying a state of the handler's is then
 * refused, as any state Parley did not seal is).
 */
export type DirectToolCalls = (call: DirectToolCall) => Promise<DirectToolOutcome> | undefined;
