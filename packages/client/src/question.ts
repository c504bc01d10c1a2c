import type { CallState } from './call-state.js';
import type { Connection } from './connection.js';
import type { Position } from './question-queue.js';
import type { AskContext, ElicitResult } from './types.js';

/** Where a question comes from: its call, round and key, and the group it arrived with. */
export interface QuestionSlot {
  readonly call: CallState;
  readonly round: number;
  readonly key?: string;
  /** Questions of one group are numbered together (one round of one call). */
  readonly group: string;
  /**
   * Shared by the questions of one group: once the person cancels one, the rest are answered
   * `cancel` without being shown (cancel ends the whole round).
   */
  readonly together?: { cancelled: boolean };
}

/**
 * What became of one question:
 * - `answer`: the result to send back (and, for a handshake URL flow, the wait that keeps the
 *   person busy afterwards). `refused` says the client answered by itself (a URL it will not open).
 * - `unshowable`: the client cannot show it (outside the schema subset, a mode it did not declare):
 *   answered `cancel` on the modern era and with error -32602 on the handshake era.
 */
export type QuestionOutcome =
  | { readonly kind: 'answer'; readonly result: ElicitResult; readonly refused?: string }
  | { readonly kind: 'unshowable'; readonly reason: string };

export function askContext(
  connection: Connection,
  slot: QuestionSlot,
  position: Position,
  signal: AbortSignal,
): AskContext {
  return {
    server: connection.server,
    call: slot.call.info,
    callId: slot.call.id,
    round: slot.round,
    ...(slot.key !== undefined && { key: slot.key }),
    position,
    era: connection.era,
    signal,
  };
}

/** How a question is named in messages: by its key when it has one, else by its message. */
export function describeQuestion(key: string | undefined, message: string): string {
  return key === undefined ? `"${message}"` : `"${key}" ("${message}")`;
}
