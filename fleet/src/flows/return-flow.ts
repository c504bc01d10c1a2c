import type { Outcome } from '../mcp/outcome.js';
import { futureDate, type Random } from '../random.js';
import { USERS, type UserName } from '../users.js';
import type { Progress, Step } from './flow.js';
import { BookingFlow, CONTINUE, type FlowDeps, mismatch, unexpected } from './rounds-flow.js';

const REASONS = ['Broken', 'Wrong item', 'No longer needed'] as const;

/**
 * The form flow: `book_return` asks one form (its email pre-filled with the caller's own address);
 * the answer carries a unique email, and the booking must come back with exactly this flow's data.
 */
export class ReturnFlow extends BookingFlow {
  readonly #answer: {
    reason: (typeof REASONS)[number];
    email: string;
    boxes: number;
    pickup_date: string;
    gift_wrap: boolean;
  };

  constructor(id: number, user: UserName, deps: FlowDeps, random: Random) {
    super(id, 'form', user, deps);
    this.#answer = {
      reason: random.pick(REASONS),
      email: `return-${id}-${random.word(8)}@fleet.example`,
      boxes: random.int(1, 3),
      pickup_date: futureDate(random.int(0, 3000)),
      gift_wrap: random.next() < 0.5,
    };
  }

  protected roundStep(round: number): Step {
    if (round === 0) return this.call(0, 'book_return', 'safe');
    return this.call(1, 'book_return', 'reconcile', { return: { action: 'accept', content: this.#answer } });
  }

  protected onRound(round: number, outcome: Outcome): Progress {
    if (round === 0) {
      const form = outcome.kind === 'input_required' ? outcome.questions.return : undefined;
      if (outcome.kind !== 'input_required' || form?.mode !== 'form')
        return unexpected('book_return round 1', outcome);
      const ownEmail = USERS.find((user) => user.name === this.user)!.email;
      const offered = form.requestedSchema?.properties?.email?.default;
      if (offered !== ownEmail) {
        return { status: 'wrong', reason: `the form offered ${String(offered)} to ${this.user}` };
      }
      this.requestState = outcome.requestState;
      return CONTINUE;
    }
    if (outcome.kind !== 'complete' || outcome.isError) return unexpected('book_return round 2', outcome);
    const booked = outcome.data.return as Record<string, unknown> | undefined;
    if (!booked)
      return { status: 'wrong', reason: `book_return answered without a booking: ${outcome.text}` };
    const problem = this.checkBooking(booked);
    return problem ? { status: 'wrong', reason: problem } : { status: 'completed' };
  }

  protected bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return (bookings.returns ?? []) as Record<string, unknown>[];
  }

  protected isMine(booked: Record<string, unknown>): boolean {
    return booked.email === this.#answer.email;
  }

  protected checkBooking(booked: Record<string, unknown>): string | undefined {
    const problem = mismatch(booked, {
      user: this.user,
      email: this.#answer.email,
      reason: this.#answer.reason,
      boxes: this.#answer.boxes,
      pickupDate: this.#answer.pickup_date,
      giftWrap: this.#answer.gift_wrap,
    });
    return problem && `return flow ${this.id} (${this.user}): ${problem}`;
  }
}
