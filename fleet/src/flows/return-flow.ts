import type { Outcome } from '../mcp/outcome.js';
import type { Random } from '../random.js';
import { USERS, type UserName } from '../users.js';
import { type ReturnAnswer, randomReturnAnswer, returnBookings } from './bookings.js';
import type { Progress, Step } from './flow.js';
import { BookingFlow, CONTINUE, type FlowDeps, unexpected } from './rounds-flow.js';

/**
 * The form flow: `book_return` asks one form (its email pre-filled with the caller's own address);
 * the answer carries a unique email, and the booking must come back with exactly this flow's data.
 */
export class ReturnFlow extends BookingFlow {
  readonly #answer: ReturnAnswer;

  constructor(id: number, user: UserName, deps: FlowDeps, random: Random) {
    super(id, 'form', user, deps);
    this.#answer = randomReturnAnswer(`return-${id}`, random);
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
    return returnBookings.of(bookings);
  }

  protected isMine(booked: Record<string, unknown>): boolean {
    return returnBookings.isMine(booked, this.#answer);
  }

  protected checkBooking(booked: Record<string, unknown>): string | undefined {
    const problem = returnBookings.problem(booked, this.user, this.#answer);
    return problem && `return flow ${this.id} (${this.user}): ${problem}`;
  }
}
