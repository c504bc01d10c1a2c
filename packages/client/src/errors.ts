import type { CallInfo } from './types.js';

/**
 * Why a call or connection failed:
 * - `connection`: the server could not be reached, exited, or the connection closed.
 * - `server`: the server answered with a JSON-RPC error (`code` and `data` are kept).
 * - `protocol`: the server sent something MCP does not allow (unknown `resultType`, unknown input
 *   request method, an invalid result, a question kind the client did not declare).
 * - `timeout`: the server took longer than `requestTimeoutMs` (time spent on questions not counted).
 * - `round-limit`: the server still asked for input after `maxRounds` rounds.
 * - `unanswered`: a question had no answer (a script ran out, or there is no terminal to ask in).
 * - `invalid-answer`: the host answered with content that does not fit the form.
 * - `host`: the host's `ElicitationUI` threw while showing a question.
 * - `cancelled`: the call was cancelled (its signal aborted, or the person stopped it).
 * - `declined`: the person declined a URL the server required before it could go on (2025-11-25
 *   URL-required error), or a sampling request on 2026-07-28, so the call could not be retried.
 * - `auth`: signing in to a protected server failed or was refused (`SignInError`, from
 *   `@parley/client/oauth`); nothing was stored.
 */
export type ParleyErrorKind =
  | 'connection'
  | 'server'
  | 'protocol'
  | 'timeout'
  | 'round-limit'
  | 'too-large'
  | 'unanswered'
  | 'invalid-answer'
  | 'host'
  | 'cancelled'
  | 'declined'
  | 'auth';

/** What a `ParleyError` carries besides its kind and message: which server and call, and the server's own error. */
export interface ParleyErrorDetails {
  /** The server's name, when the error is about a server. */
  readonly server?: string;
  readonly call?: CallInfo;
  /** The JSON-RPC error code (`server` errors). */
  readonly code?: number;
  /** The JSON-RPC error data, or the last `input_required` result (`round-limit`). */
  readonly data?: unknown;
  readonly cause?: unknown;
}

/**
 * The one error type Parley's client throws. `kind` says what went wrong; the message says what to
 * do about it.
 *
 * @example
 * try {
 *   await client.callTool('book');
 * } catch (error) {
 *   if (error instanceof ParleyError && error.kind === 'round-limit') console.error(error.data);
 * }
 */
export class ParleyError extends Error {
  readonly kind: ParleyErrorKind;
  readonly server?: string;
  readonly call?: CallInfo;
  readonly code?: number;
  readonly data?: unknown;

  constructor(kind: ParleyErrorKind, message: string, details: ParleyErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ParleyError';
    this.kind = kind;
    if (details.server !== undefined) this.server = details.server;
    if (details.call !== undefined) this.call = details.call;
    if (details.code !== undefined) this.code = details.code;
    if (details.data !== undefined) this.data = details.data;
  }
}

/** How a call is named in messages: `tool "book"`, `prompt "greet"`, `resource "file:///a"`. */
export function describeCall(call: CallInfo): string {
  return `${call.kind} "${call.name}"`;
}
