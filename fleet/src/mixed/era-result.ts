import type { FlowKind } from '../flows/flow.js';
import type { UserName } from '../users.js';

/** The two protocol eras the concurrent run drives. */
export type Era = '2025' | '2026-07-28';

/** Where a flow stood: the step it was on, and the replica (its balancer address) that answered it last. */
export interface FlowPlace {
  readonly step: string;
  readonly replica: string | undefined;
}

/** "at <step> on <replica>", for the report. */
export function placeText(
  place: FlowPlace | undefined,
  nameOf: (address: string) => string = (a) => a,
): string {
  if (!place) return '';
  return ` at ${place.step}${place.replica ? ` on ${nameOf(place.replica)}` : ' (no replica answered)'}`;
}

/** How one flow of the concurrent run ended. */
export interface EraResult {
  readonly era: Era;
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  /** `lost`: it never ended (it hung past the run's deadline). */
  readonly status: 'completed' | 'failed' | 'wrong' | 'lost';
  /** Times it started again (2025: a new session) or re-sent a request after an unclear failure. */
  readonly retries: number;
  /** Its last attempt failed unclearly and the booking check found the booking made. */
  readonly recovered: boolean;
  readonly reason?: string;
  /** Where a flow that did not complete stood when it ended: its step, and the replica that answered last. */
  readonly at?: FlowPlace;
  /** What made it retry first, when it did. */
  readonly retriedFor?: string;
  /** What made it retry, each time (with where it stood), for the flows that retried most. */
  readonly retriedAt?: readonly string[];
  /** The flow, for the store audit (its unique booking). */
  readonly flow: { bookingsIn(bookings: Record<string, unknown>): Record<string, unknown>[] };
}
