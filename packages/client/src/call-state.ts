import { type AnswerSummary, type CallEvent, type CallMethod, safeListener } from './events.js';
import type { CallInfo } from './types.js';

/** One call in flight: what it is, how to stop it, and what the person last answered. */
export class CallState {
  readonly startedAt = Date.now();
  /** Aborted when the call ends, fails, or the caller's signal aborts. */
  readonly signal: AbortSignal;
  /** The latest request leg (modern: the round). */
  round = 1;
  /** Handshake era: how many questions the server asked so far (the question's round). */
  questions = 0;
  /** Answers sent for the latest round or question, for telling a final decline from a tool error. */
  lastAnswers: readonly AnswerSummary[] = [];
  private readonly controller = new AbortController();
  private readonly events: CallEvent[] = [];
  private readonly listeners = new Set<(event: CallEvent) => void>();
  private ended = false;

  constructor(
    readonly id: number,
    readonly info: CallInfo,
    readonly method: CallMethod,
    callerSignal: AbortSignal | undefined,
  ) {
    this.signal = callerSignal
      ? AbortSignal.any([callerSignal, this.controller.signal])
      : this.controller.signal;
  }

  /** Stops the call: pending questions are dropped and the request in flight is cancelled. */
  stop(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  get stopped(): boolean {
    return this.signal.aborted;
  }

  /** Keeps an event of this call and hands it to the call's listeners. */
  record(event: CallEvent): void {
    if (this.ended) return;
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }

  /** Replays the call's events so far to `listener`, then each new one until the call ends. */
  subscribe(listener: (event: CallEvent) => void): () => void {
    const safe = safeListener(listener);
    for (const event of this.events) safe(event);
    if (this.ended) return () => {};
    this.listeners.add(safe);
    return () => this.listeners.delete(safe);
  }

  /** No more events: listeners are let go. */
  end(): void {
    this.ended = true;
    this.listeners.clear();
  }
}

/** The calls of one connection, numbered from 1, oldest first. */
export class CallRegistry {
  private nextId = 1;
  private readonly calls = new Map<number, CallState>();

  open(info: CallInfo, method: CallMethod, signal: AbortSignal | undefined): CallState {
    const call = new CallState(this.nextId++, info, method, signal);
    this.calls.set(call.id, call);
    return call;
  }

  close(call: CallState, reason: Error): void {
    call.stop(reason);
    call.end();
    this.calls.delete(call.id);
  }

  get(id: number): CallState | undefined {
    return this.calls.get(id);
  }

  /**
   * The call a handshake-era server request belongs to. The 2025 wire does not say; with one call in
   * flight that is the one, with several Parley picks the oldest.
   */
  current(): CallState | undefined {
    return this.calls.values().next().value;
  }

  all(): CallState[] {
    return [...this.calls.values()];
  }
}
