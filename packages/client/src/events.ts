import type { CallInfo, Era } from './types.js';

/** The request method behind a call. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** What a person (or the host) answered for one question; never the content itself. */
export interface AnswerSummary {
  /** The `inputRequests` key (modern) or `dev.parley/key` (handshake), when there is one. */
  readonly key?: string;
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  /**
   * For elicitations: what the person chose. A sampling answer is `accept`, or `decline` (2025
   * eras: answered with error -1); roots answers are `accept`.
   */
  readonly action: 'accept' | 'decline' | 'cancel';
}

interface EventBase {
  /** Numbers the calls of one connection, from 1. */
  readonly callId: number;
  readonly round: number;
  /** `Date.now()` when the event happened. */
  readonly at: number;
}

/**
 * One step of a call, for `--verbose` output and the lab's timeline. Events never carry what a
 * person typed.
 *
 * - `request`: a request leg went out (modern: one per round; handshake: one per call, and one per
 *   retry after a 2025-11-25 URL-required error).
 * - `input-required`: the server answered with `input_required` (modern); `ms` is the leg's time.
 * - `elicitation`: the server sent `elicitation/create` during the call (handshake).
 * - `skipped`: a question was not shown (schema outside the subset, undeclared mode, refused URL);
 *   it was answered `cancel`/`decline` (modern) or with error -32602 (handshake).
 * - `answers`: what went back for the questions of a round.
 * - `url-complete`: the server announced a URL flow finished (2025-11-25).
 * - `result` / `error`: how the call ended; `ms` counts the whole call.
 */
export type CallEvent =
  | (EventBase & {
      readonly type: 'request';
      readonly method: CallMethod;
      /** The tool or prompt name, or the resource URI (as in `call.name`). */
      readonly name: string;
      readonly call: CallInfo;
      readonly era: Era;
    })
  | (EventBase & {
      readonly type: 'input-required';
      readonly keys: readonly string[];
      /** Length in bytes (UTF-8) of the `requestState`, or `null` when the server sent none. */
      readonly stateBytes: number | null;
      readonly ms: number;
    })
  | (EventBase & {
      readonly type: 'elicitation';
      readonly key?: string;
      readonly mode: 'form' | 'url' | 'unknown';
    })
  | (EventBase & {
      readonly type: 'skipped';
      readonly key?: string;
      readonly reason: string;
      readonly answered: 'cancel' | 'decline' | 'error';
    })
  | (EventBase & { readonly type: 'answers'; readonly answers: readonly AnswerSummary[] })
  | (EventBase & { readonly type: 'url-complete'; readonly elicitationId: string })
  | (EventBase & { readonly type: 'result'; readonly isError: boolean; readonly ms: number })
  | (EventBase & { readonly type: 'error'; readonly message: string; readonly ms: number });

/** A listener that can never break a call: whatever it throws is dropped. */
export function safeListener(listener: ((event: CallEvent) => void) | undefined): (event: CallEvent) => void {
  if (listener === undefined) return () => {};
  return (event) => {
    try {
      listener(event);
    } catch {
      // A broken listener must not change how a call ends.
    }
  };
}
