import type { FlowKind } from '../flows/flow.js';
import type { UserName } from '../users.js';

/** The two protocol eras the concurrent run drives. */
export type Era = '2025' | '2026-07-28';

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
  /** What made it retry first, when it did. */
  readonly retriedFor?: string;
  /** The flow, for the store audit (its unique booking). */
  readonly flow: { bookingsIn(bookings: Record<string, unknown>): Record<string, unknown>[] };
}
