import type { Outcome } from '../mcp/outcome.js';
import { futureDate, type Random } from '../random.js';
import type { UserName } from '../users.js';
import { type Destination, flightBookings, randomDestination } from './bookings.js';
import type { Progress, Step } from './flow.js';
import { BookingFlow, CONTINUE, type FlowDeps, unexpected } from './rounds-flow.js';

/** A round of a flow that a probe may present elsewhere (it books nothing). */
export interface Replayable {
  readonly tool: string;
  readonly user: UserName;
  readonly inputResponses: Record<string, { action: string; content?: Record<string, unknown> }>;
  readonly requestState: string;
}

/**
 * The three-round flow: `book_flight` asks the destination, then the date (naming the city), then a
 * confirmation quoting both. Each flow flies on its own day (2030-01-01 plus its id), so the flight
 * it books is unique to it.
 */
export class FlightFlow extends BookingFlow {
  readonly #destination: Destination;
  readonly #date: string;
  #firstState: string | undefined;

  constructor(id: number, user: UserName, deps: FlowDeps, random: Random) {
    super(id, 'three-round', user, deps);
    this.#destination = randomDestination(random);
    this.#date = futureDate(id);
  }

  /** The answers of round `round`. */
  #answers(round: number): Replayable['inputResponses'] {
    if (round === 1) return { destination: { action: 'accept', content: { value: this.#destination.code } } };
    if (round === 2) return { date: { action: 'accept', content: { value: this.#date } } };
    return { confirm: { action: 'accept', content: { value: true } } };
  }

  /** The second round (answering the destination): replaying it elsewhere books nothing. */
  replayable(): Replayable | undefined {
    if (this.#firstState === undefined) return undefined;
    return {
      tool: 'book_flight',
      user: this.user,
      inputResponses: this.#answers(1),
      requestState: this.#firstState,
    };
  }

  protected roundStep(round: number): Step {
    if (round === 0) return this.call(0, 'book_flight', 'safe');
    return this.call(round, 'book_flight', round === 3 ? 'reconcile' : 'safe', this.#answers(round));
  }

  protected onRound(round: number, outcome: Outcome): Progress {
    const { code, city, fareEur } = this.#destination;
    const where = `book_flight round ${round + 1}`;
    if (round < 3) {
      if (outcome.kind !== 'input_required') return unexpected(where, outcome);
      const [key, question] = Object.entries(outcome.questions)[0] ?? [];
      const expected = ['destination', 'date', 'confirm'][round];
      if (key !== expected || !question) return unexpected(where, outcome);
      const quoted =
        round === 1
          ? `to ${city}?`
          : round === 2
            ? `Book ${city} (${code}) on ${this.#date} for €${fareEur}?`
            : '';
      if (!question.message.includes(quoted)) {
        return { status: 'wrong', reason: `flight flow ${this.id} was asked "${question.message}"` };
      }
      if (round === 0 && !question.requestedSchema?.properties?.value?.oneOf?.some((o) => o.const === code)) {
        return { status: 'failed', reason: `${where}: ${code} is not offered` };
      }
      if (round === 0) this.#firstState = outcome.requestState;
      this.requestState = outcome.requestState;
      return CONTINUE;
    }
    if (outcome.kind !== 'complete' || outcome.isError) return unexpected(where, outcome);
    const flight = outcome.data.flight as Record<string, unknown> | undefined;
    if (!flight) return { status: 'wrong', reason: `book_flight answered without a flight: ${outcome.text}` };
    const problem = this.checkBooking(flight);
    return problem ? { status: 'wrong', reason: problem } : { status: 'completed' };
  }

  protected bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return flightBookings.of(bookings);
  }

  protected isMine(flight: Record<string, unknown>): boolean {
    return flightBookings.isMine(flight, this.#date);
  }

  protected checkBooking(flight: Record<string, unknown>): string | undefined {
    const problem = flightBookings.problem(flight, this.user, this.#destination, this.#date);
    return problem && `flight flow ${this.id} (${this.user}): ${problem}`;
  }
}
