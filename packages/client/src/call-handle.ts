import type { CallEvent, CallMethod } from './events.js';
import type { CallInfo } from './types.js';

/**
 * Which call this is, and a way to follow it. `callTool`, `getPrompt` and `readResource` return a
 * `Call`: the promise of the call's result with these members on it.
 */
export interface CallHandle {
  /** The call's number on its connection: the `callId` of its events and of each question's `AskContext`. */
  readonly id: number;
  /** What was called, as questions about this call name it. */
  readonly call: CallInfo;
  readonly method: CallMethod;
  /**
   * Follows this call's events: first the ones that already happened (the first `request` goes out
   * before the call is returned), then each new one until the call ends with `result` or `error`.
   * Whatever the listener throws is dropped. Returns a function that stops listening.
   */
  onEvent(listener: (event: CallEvent) => void): () => void;
}

/**
 * A call in flight: `await` it for the result (it rejects with a `ParleyError`), and read its `id` or
 * follow its events at once, so a host can match questions and events to the call it started.
 *
 * @example
 * const call = client.callTool('book_pickup', { boxes: 2 });
 * call.onEvent((event) => console.error(`call ${call.id}: ${event.type}`));
 * const result = await call;
 */
export type Call<T> = Promise<T> & CallHandle;
