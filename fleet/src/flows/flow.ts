import type { BalancedReply } from '../lb/channel.js';
import type { HttpCall } from '../lb/send.js';
import type { UserName } from '../users.js';

/** The three kinds of flow the driver runs. */
export type FlowKind = 'form' | 'three-round' | 'url';

/** One request of a flow. */
export interface Step {
  readonly call: HttpCall;
  /** e.g. `book_flight round 2`, `connect page`. */
  readonly label: string;
  /** A round of the MCP call (as opposed to a page of the store). */
  readonly round: boolean;
  /**
   * After an unclear failure (no answer, 502, shutdown), whether the step can simply be sent again
   * (`safe`), or may have run a side effect and must first be checked (`reconcile`).
   */
  readonly retry: 'safe' | 'reconcile';
}

/** Where a flow stands after a reply. */
export type Progress =
  | { readonly status: 'continue' }
  | { readonly status: 'completed'; readonly recovered?: boolean }
  /** It got someone else's data, or a state that should have been refused opened. */
  | { readonly status: 'wrong'; readonly reason: string }
  /** It ended with an error. */
  | { readonly status: 'failed'; readonly reason: string };

/** What the driver needs of a flow. */
export interface Flow {
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  /** The request to send next. */
  step(): Step;
  /** Handles a reply to `step()` that the driver did not treat as an unclear failure. */
  handle(reply: BalancedReply): Progress;
  /** An unclear failure of `step()`: next time, send it again, or first check whether it took effect. */
  unclear(): void;
}
