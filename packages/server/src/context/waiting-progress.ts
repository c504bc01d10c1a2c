import type { ProgressToken, ServerContext } from '@modelcontextprotocol/server';

/** What a reminder says. */
export const WAITING_MESSAGE = 'Waiting for your answer';

/**
 * How many slots the wheel has: a call is reminded every `everyMs`, the first time within a quarter
 * period after it began waiting (5 s with the default 20 s): a client with a short request timeout
 * hears that the call waits on a person before that timeout ends it.
 */
const SLOTS = 4;

/**
 * Keeps 2025-era calls alive while a person takes their time: every call whose request carries a
 * `progressToken` gets `notifications/progress` ("Waiting for your answer") every `everyMs` while a
 * question of it waits, so a client that resets its request timeout on progress (the TypeScript
 * SDK's `resetTimeoutOnProgress`) does not give up on the person at its 60 s default.
 *
 * One timer wheel for every waiting call of the server, not a timer per call: a waiting call costs
 * its place in one slot's set. The wheel turns only while some call waits.
 */
export class WaitingReminders {
  readonly #slots: Set<WaitingCall>[] = Array.from({ length: SLOTS }, () => new Set());
  readonly #tickMs: number;
  #at = 0;
  #waiting = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(everyMs: number) {
    if (!(Number.isFinite(everyMs) && everyMs > 0))
      throw new RangeError(
        `waitingProgressMs must be a positive number of milliseconds, or 0 for none (got ${everyMs}).`,
      );
    this.#tickMs = Math.max(1, Math.floor(everyMs / SLOTS));
  }

  /** Calls reminded now. */
  get size(): number {
    return this.#waiting;
  }

  /** `call` began waiting: it is reminded at the next tick, then once a period, until {@link remove}. */
  add(call: WaitingCall): void {
    // The slot after the one that fired last fires next: within a quarter period from now.
    call.slot = (this.#at + 1) % SLOTS;
    this.#slots[call.slot]!.add(call);
    if (++this.#waiting === 1) {
      this.#timer = setInterval(() => this.#tick(), this.#tickMs);
      this.#timer.unref?.();
    }
  }

  remove(call: WaitingCall): void {
    if (!this.#slots[call.slot]!.delete(call)) return;
    if (--this.#waiting === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #tick(): void {
    this.#at = (this.#at + 1) % SLOTS;
    for (const call of this.#slots[this.#at]!) call.remind();
  }
}

/** What a reminder needs of the request: its `notify` (on HTTP it rides on the request's own stream). */
export interface NotifyingRequest {
  readonly mcpReq: Pick<ServerContext['mcpReq'], 'notify' | '_meta'>;
}

/**
 * One call that carries a `progressToken`, as the reminders see it: how many of its questions (or
 * URL flows) wait, and the progress it last reported.
 *
 * The spec wants each progress of a request to be larger than the one before, so a reminder repeats
 * the handler's last progress (0 if it reported none) and `total`, raised by a thousandth per
 * reminder: the handler's next whole step still lies above every reminder, and a progress bar does
 * not move while the person thinks.
 */
export class WaitingCall {
  /** The wheel's slot it sits in while it waits. */
  slot = 0;
  readonly #wheel: WaitingReminders;
  readonly #request: NotifyingRequest;
  readonly #token: ProgressToken;
  #waiting = 0;
  #base = 0;
  #total: number | undefined;
  #reminders = 0;
  #pageAt: number | undefined;

  constructor(wheel: WaitingReminders, request: NotifyingRequest, token: ProgressToken) {
    this.#wheel = wheel;
    this.#request = request;
    this.#token = token;
  }

  /**
   * A question (or URL flow) of the call began waiting; `pageAt`: when it moves to a page of the
   * server because the call's host gives up on it then (its host profile), if it does.
   */
  began(pageAt?: number): void {
    if (pageAt !== undefined && (this.#pageAt === undefined || pageAt < this.#pageAt)) this.#pageAt = pageAt;
    if (this.#waiting++ === 0) this.#wheel.add(this);
  }

  /** A question that {@link began} has its answer, or failed. */
  ended(): void {
    if (--this.#waiting === 0) {
      this.#wheel.remove(this);
      this.#pageAt = undefined;
    }
  }

  /** The handler reported progress itself (`ctx.progress`): reminders continue from there. */
  reported(progress: number, total: number | undefined): void {
    if (!Number.isFinite(progress) || progress <= this.#last()) return;
    this.#base = progress;
    this.#total = total !== undefined && Number.isFinite(total) ? total : undefined;
    this.#reminders = 0;
  }

  /** Sends one reminder (the wheel calls it). A stream that is gone loses it, and nothing else. */
  remind(): void {
    this.#reminders++;
    const params = {
      progressToken: this.#token,
      progress: this.#last(),
      ...(this.#total !== undefined && { total: this.#total }),
      message: this.#message(),
    };
    this.#request.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {});
  }

  /** What the reminder says: when the question moves to a page, where the host gives up on it. */
  #message(): string {
    if (this.#pageAt === undefined) return WAITING_MESSAGE;
    const seconds = Math.max(0, Math.round((this.#pageAt - Date.now()) / 1000));
    return `${WAITING_MESSAGE} (in ${seconds} s it moves to a page of the server, before this host gives up on it)`;
  }

  /** The largest progress sent on the call so far (rounded to a thousandth: 50.003, not 50.00300000000001). */
  #last(): number {
    return this.#reminders === 0
      ? this.#base
      : Math.round((this.#base + this.#reminders / 1000) * 1000) / 1000;
  }
}

/** The reminders of one call, when it carries a `progressToken` and the server sends reminders. */
export function waitingCallOf(
  wheel: WaitingReminders | undefined,
  request: NotifyingRequest,
): WaitingCall | undefined {
  const token = request.mcpReq._meta?.progressToken;
  if (!wheel || token === undefined) return undefined;
  return new WaitingCall(wheel, request, token);
}
