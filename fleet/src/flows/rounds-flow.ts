import type { BalancedReply } from '../lb/channel.js';
import { toolCall } from '../mcp/modern-call.js';
import { type Outcome, outcomeOf } from '../mcp/outcome.js';
import type { Tokens, UserName } from '../users.js';
import type { Flow, FlowKind, Progress, Step } from './flow.js';

export const CONTINUE: Progress = { status: 'continue' };

/** What a flow needs from the driver. */
export interface FlowDeps {
  /** The bearer tokens in use (they change when the replica that printed them is restarted). */
  readonly tokens: () => Tokens;
}

/** A failure described from an outcome the flow did not expect. */
export function unexpected(where: string, outcome: Outcome): Progress {
  switch (outcome.kind) {
    case 'rpc_error':
      return { status: 'failed', reason: `${where}: JSON-RPC error ${outcome.code} ${outcome.message}` };
    case 'complete':
      return {
        status: 'failed',
        reason: `${where}: ${outcome.isError ? 'tool error' : 'result'} "${outcome.text}"`,
      };
    case 'input_required':
      return {
        status: 'failed',
        reason: `${where}: asked ${Object.keys(outcome.questions).join(', ')} instead`,
      };
    default:
      return { status: 'failed', reason: `${where}: ${outcome.reason}` };
  }
}

/**
 * A flow of MCP rounds whose last round books something inside `ctx.once`. When that round fails
 * unclearly, the booking may or may not exist: the flow asks `list_bookings` for its own unique
 * booking before it sends the round again, so nothing is booked twice.
 */
export abstract class BookingFlow implements Flow {
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  protected readonly deps: FlowDeps;
  protected readonly clientName: string;
  protected requestState: string | undefined;
  #round = 0;
  #checking = false;

  constructor(id: number, kind: FlowKind, user: UserName, deps: FlowDeps) {
    this.id = id;
    this.kind = kind;
    this.user = user;
    this.deps = deps;
    this.clientName = `fleet-${kind}-${id}`;
  }

  protected get token(): string {
    return this.deps.tokens()[this.user];
  }

  /** The request of round `round` (0 is the first call). */
  protected abstract roundStep(round: number): Step;
  /** Checks round `round`'s outcome; `continue` moves on to the next round. */
  protected abstract onRound(round: number, outcome: Outcome): Progress;
  /** The bookings of this flow's kind in `list_bookings`' structured content. */
  protected abstract bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[];
  /** Whether a booking carries this flow's unique marker. */
  protected abstract isMine(booking: Record<string, unknown>): boolean;
  /** What is wrong with a booking that carries this flow's marker (undefined: it is all ours). */
  protected abstract checkBooking(booking: Record<string, unknown>): string | undefined;

  step(): Step {
    if (!this.#checking) return this.roundStep(this.#round);
    return {
      call: toolCall({ tool: 'list_bookings', token: this.token, clientName: this.clientName }),
      label: `${this.kind} booking check`,
      round: false,
      retry: 'safe',
    };
  }

  handle(reply: BalancedReply): Progress {
    const outcome = outcomeOf(reply);
    if (this.#checking) {
      if (outcome.kind !== 'complete' || outcome.isError) return unexpected('list_bookings', outcome);
      this.#checking = false;
      const booking = this.bookingsIn(outcome.data)[0];
      if (booking === undefined) return CONTINUE; // not booked: the round is sent again
      const problem = this.checkBooking(booking);
      return problem ? { status: 'wrong', reason: problem } : { status: 'completed', recovered: true };
    }
    const progress = this.onRound(this.#round, outcome);
    if (progress.status === 'continue') this.#round++;
    return progress;
  }

  /** The bookings in `list_bookings`' structured content that carry this flow's marker (one, once it booked). */
  bookingsIn(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return this.bookingsOfKind(bookings).filter((booking) => this.isMine(booking));
  }

  unclear(): void {
    if (this.step().retry === 'reconcile') this.#checking = true;
  }

  /** A tool-call step of this flow. */
  protected call(
    round: number,
    tool: string,
    retry: Step['retry'],
    inputResponses?: Record<string, { action: string; content?: Record<string, unknown> }>,
  ): Step {
    return {
      call: toolCall({
        tool,
        token: this.token,
        clientName: this.clientName,
        ...(inputResponses && { inputResponses }),
        ...(this.requestState !== undefined && round > 0 && { requestState: this.requestState }),
      }),
      label: `${tool} round ${round + 1}`,
      round: true,
      retry,
    };
  }
}

/** Compares the fields a booking must have; names the first that differs. */
export function mismatch(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
): string | undefined {
  for (const [field, value] of Object.entries(expected)) {
    if (actual[field] !== value) {
      return `${field} is ${JSON.stringify(actual[field])}, expected ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}
