import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import {
  type Destination,
  flightBookings,
  type ReturnAnswer,
  randomDestination,
  randomReturnAnswer,
  returnBookings,
} from '../flows/bookings.js';
import type { FlowKind } from '../flows/flow.js';
import { futureDate, type Random } from '../random.js';
import type { TokenUse } from '../token-use.js';
import { type Tokens, USERS, type UserName } from '../users.js';
import { type EraResult, type FlowPlace, placeText } from './era-result.js';
import { openHandshakeSession, type SessionExchange, type SessionRouting } from './handshake-session.js';

/** What a 2025-era flow needs from the run. */
export interface HandshakeDeps {
  readonly origin: string;
  readonly tokens: () => Tokens;
  readonly routing: SessionRouting;
  readonly tokenUse: TokenUse;
  /** The user's bookings (`list_bookings`' structured content), read after an unclear failure. */
  readonly listBookings: (user: UserName) => Promise<Record<string, unknown>>;
}

/** Attempts (sessions) of one flow before it gives up. */
const MAX_RETRIES = 8;
/**
 * A call that has not ended by then counts as an unclear failure (the SDK's own default is 60 s): a
 * stream cut by a replica that died or stopped is not resumed, so the SDK client would wait.
 */
const CALL_TIMEOUT_MS = 10_000;
/**
 * After an unclear failure, how long a booking that was on its way may take to be written: a first
 * look after the first wait, and a second after the second before the flow books again. On a
 * loaded machine a handler that got the last answer just before its session was cut wrote its
 * booking more than 1.5 s later (a run booked a flow twice with one look).
 */
const SETTLE_MS = [1_500, 5_000] as const;

/** One attempt's questions: the answer to send, or what was wrong with the question. */
type Answered = { readonly result: ElicitResult } | { readonly wrong: string };

/**
 * A 2025-era flow: the official SDK client opens a session through the balancer and calls a
 * Brightgrid tool whose questions arrive as `elicitation/create` over the session. Its requests
 * land on any replica (no affinity). An unclear failure (a replica died or restarted, Redis
 * restarted, a token was revoked) ends the session; if the last answer may have been taken, the
 * flow looks for its own unique booking before it starts again, so nothing is booked twice.
 */
export abstract class HandshakeFlow {
  readonly id: number;
  readonly kind: FlowKind;
  readonly user: UserName;
  readonly #deps: HandshakeDeps;

  constructor(id: number, kind: FlowKind, user: UserName, deps: HandshakeDeps) {
    this.id = id;
    this.kind = kind;
    this.user = user;
    this.#deps = deps;
  }

  protected abstract readonly tool: string;
  /** How many questions the call asks. */
  protected abstract readonly questions: number;
  /** Checks question `index` (0-based) and answers it. */
  protected abstract answer(index: number, request: ElicitRequest): Answered;
  /** What is wrong with the call's result (undefined: it is this flow's own booking). */
  protected abstract checkResult(result: CallToolResult): string | undefined;
  /** The bookings of this flow's kind in `list_bookings`' structured content. */
  protected abstract bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[];
  protected abstract isMine(booking: Record<string, unknown>): boolean;
  protected abstract checkBooking(booking: Record<string, unknown>): string | undefined;

  bookingsIn(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return this.bookingsOfKind(bookings).filter((booking) => this.isMine(booking));
  }

  async run(): Promise<EraResult> {
    let retries = 0;
    let retriedFor: string | undefined;
    const retriedAt: string[] = [];
    /** Where the attempt stands, and the session's last HTTP exchange: where a failed flow failed. */
    let phase = 'initialize';
    let last: SessionExchange | undefined;
    const place = (): FlowPlace => ({
      step: `${phase}${last ? ` (last request ${last.request}: ${last.status === 0 ? 'no response' : `HTTP ${last.status}`})` : ''}`,
      replica: last?.replica,
    });
    const end = (
      status: EraResult['status'],
      reason?: string,
      recovered = false,
      at: FlowPlace = place(),
    ): EraResult => ({
      ...(retriedFor !== undefined && { retriedFor, retriedAt }),
      era: '2025',
      id: this.id,
      kind: this.kind,
      user: this.user,
      status,
      retries,
      recovered,
      flow: this,
      ...(reason !== undefined && { reason }),
      ...(status !== 'completed' && { at }),
    });
    /**
     * An earlier attempt sent its last answer and then failed unclearly: its booking may have been
     * made. Until a check of the store settles that, no attempt may book again, however many
     * attempts (or checks) fail in between.
     */
    let unsettled = false;
    let emptyLooks = 0;
    const backOff = () =>
      new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** Math.min(retries, 5))));
    for (;;) {
      if (unsettled) {
        phase = 'list_bookings check after the last answer';
        last = undefined;
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS[emptyLooks]));
        const found = await this.#deps.listBookings(this.user).then(
          (bookings) => this.bookingsIn(bookings),
          (error: unknown) => `the check failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (typeof found === 'string') {
          retries++;
          retriedAt.push(`${found.slice(0, 120)}${placeText(place())}`);
          if (retries > MAX_RETRIES)
            return end('failed', `gave up after ${retries} failures; last: ${found}`);
          await backOff();
          continue;
        }
        if (found.length > 0) {
          const problem = this.checkBooking(found[0]!);
          return problem ? end('wrong', problem) : end('completed', undefined, true);
        }
        emptyLooks++;
        if (emptyLooks < SETTLE_MS.length) continue;
        unsettled = false;
        emptyLooks = 0;
      }
      phase = 'initialize';
      last = undefined;
      let asked = 0;
      let wrong: string | undefined;
      let lastAnswerSent = false;
      let session: Awaited<ReturnType<typeof openHandshakeSession>> | undefined;
      let failure: string;
      let where: FlowPlace | undefined;
      try {
        session = await openHandshakeSession({
          origin: this.#deps.origin,
          token: () => this.#deps.tokens()[this.user],
          clientName: `fleet-2025-${this.kind}-${this.id}`,
          routing: this.#deps.routing,
          tokenUse: this.#deps.tokenUse,
          seen: (exchange) => {
            // The cancellation the SDK sends when its call times out says nothing about the failure.
            if (exchange.request !== 'POST notifications/cancelled') last = exchange;
          },
          answer: (request) => {
            phase = `${this.tool} call, answering question ${asked + 1} of ${this.questions}`;
            const answered = this.answer(asked++, request);
            if ('wrong' in answered) {
              wrong ??= answered.wrong;
              return { action: 'cancel' };
            }
            if (asked >= this.questions) lastAnswerSent = true;
            phase = `${this.tool} call, after answer ${asked} of ${this.questions}`;
            return answered.result;
          },
        });
        phase = `${this.tool} call`;
        const result = (await session.client.callTool(
          { name: this.tool, arguments: {} },
          { timeout: CALL_TIMEOUT_MS },
        )) as CallToolResult;
        await session.end();
        if (wrong !== undefined) return end('wrong', wrong);
        if (result.isError) return end('failed', `${this.tool}: tool error "${textOf(result)}"`);
        const problem = this.checkResult(result);
        return problem ? end('wrong', problem) : end('completed');
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
        where = place(); // before the DELETE that ends the session
        await session?.end();
      }
      if (wrong !== undefined) return end('wrong', wrong);
      if (!isRetryable(failure)) return end('failed', failure, false, where);
      retries++;
      retriedFor ??= failure;
      retriedAt.push(`${failure.slice(0, 120)}${placeText(where)}`);
      // The booking may have been made before the failure: the next attempt looks before it books.
      if (lastAnswerSent) {
        unsettled = true;
        emptyLooks = 0;
      }
      if (retries > MAX_RETRIES && !unsettled)
        return end('failed', `gave up after ${retries} failures; last: ${failure}`, false, where);
      if (!unsettled) await backOff();
    }
  }
}

/**
 * Failures a client fixes by starting a new session: the transport's (connection cut, HTTP 404
 * session not found, 401 revoked token, 502/503/504), a stream ended by the fleet's router (-32001),
 * a timeout or a closed connection. A protocol error about the request itself is not.
 */
function isRetryable(message: string): boolean {
  return !/invalid params|method not found|-32602|-32601/i.test(message);
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** `book_return` over a session: one form, answered with this flow's unique email. */
export class HandshakeReturnFlow extends HandshakeFlow {
  protected readonly tool = 'book_return';
  protected readonly questions = 1;
  readonly #answer: ReturnAnswer;

  constructor(id: number, user: UserName, deps: HandshakeDeps, random: Random) {
    super(id, 'form', user, deps);
    this.#answer = randomReturnAnswer(`return-2025-${id}`, random);
  }

  protected answer(_index: number, request: ElicitRequest): Answered {
    const params = request.params as {
      requestedSchema?: { properties?: Record<string, { default?: unknown }> };
    };
    const offered = params.requestedSchema?.properties?.email?.default;
    const own = USERS.find((user) => user.name === this.user)!.email;
    if (offered !== own) return { wrong: `the form offered ${String(offered)} to ${this.user}` };
    return { result: { action: 'accept', content: this.#answer } };
  }

  protected checkResult(result: CallToolResult): string | undefined {
    const booked = (result.structuredContent as Record<string, unknown> | undefined)?.return as
      | Record<string, unknown>
      | undefined;
    if (!booked) return `book_return answered without a booking: ${textOf(result)}`;
    return this.checkBooking(booked);
  }

  protected bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return returnBookings.of(bookings);
  }

  protected isMine(booked: Record<string, unknown>): boolean {
    return returnBookings.isMine(booked, this.#answer);
  }

  protected checkBooking(booked: Record<string, unknown>): string | undefined {
    const problem = returnBookings.problem(booked, this.user, this.#answer);
    return problem && `2025 return flow ${this.id} (${this.user}): ${problem}`;
  }
}

/** `book_flight` over a session: three questions, each quoting this flow's own answers. */
export class HandshakeFlightFlow extends HandshakeFlow {
  protected readonly tool = 'book_flight';
  protected readonly questions = 3;
  readonly #destination: Destination;
  readonly #date: string;

  /** `day`: the flow's own departure day after 2030-01-01 (unique in the run). */
  constructor(id: number, user: UserName, deps: HandshakeDeps, random: Random, day: number) {
    super(id, 'three-round', user, deps);
    this.#destination = randomDestination(random);
    this.#date = futureDate(day);
  }

  protected answer(index: number, request: ElicitRequest): Answered {
    const { code, city, fareEur } = this.#destination;
    const message = request.params.message;
    if (index === 0) return { result: { action: 'accept', content: { value: code } } };
    if (index === 1) {
      if (!message.includes(`to ${city}?`)) return { wrong: `flight flow ${this.id} was asked "${message}"` };
      return { result: { action: 'accept', content: { value: this.#date } } };
    }
    if (!message.includes(`Book ${city} (${code}) on ${this.#date} for €${fareEur}?`))
      return { wrong: `flight flow ${this.id} was asked "${message}"` };
    return { result: { action: 'accept', content: { value: true } } };
  }

  protected checkResult(result: CallToolResult): string | undefined {
    const flight = (result.structuredContent as Record<string, unknown> | undefined)?.flight as
      | Record<string, unknown>
      | undefined;
    if (!flight) return `book_flight answered without a flight: ${textOf(result)}`;
    return this.checkBooking(flight);
  }

  protected bookingsOfKind(bookings: Record<string, unknown>): Record<string, unknown>[] {
    return flightBookings.of(bookings);
  }

  protected isMine(flight: Record<string, unknown>): boolean {
    return flightBookings.isMine(flight, this.#date);
  }

  protected checkBooking(flight: Record<string, unknown>): string | undefined {
    const problem = flightBookings.problem(flight, this.user, this.#destination, this.#date);
    return problem && `2025 flight flow ${this.id} (${this.user}): ${problem}`;
  }
}
