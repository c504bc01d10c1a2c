import type { InputRequest } from '@modelcontextprotocol/server';
import type { AskItem, AskPoint, ItemResult } from '../ask/ask-item.js';
import { fingerprint } from '../ask/fingerprint.js';
import { kindOf, NOT_FINISHED_YET, questionMessage } from '../ask/kind-table.js';
import type { FlowWatch } from '../ask/question-kind.js';
import { SUSPEND } from '../context/parley-context.js';
import { ReplayDivergenceError, RoundLimitError, TooManyInvalidAnswersError } from '../errors.js';
import { type OnceStore, type OnceTimings, runOnce } from '../once/once-store.js';
import type { Json, PendingAsk, RoundState } from '../state/round-state.js';
import { Journal } from './journal.js';

/** The client sent answers that are not answers: answered as JSON-RPC -32602, the handler stops. */
export class MalformedResponseError extends Error {
  constructor(problem: string) {
    super(`Invalid inputResponses: ${problem}.`);
    this.name = 'MalformedResponseError';
  }
}

export interface ReplayLimits {
  readonly maxRounds: number;
  readonly maxTries: number;
}

/** What a suspended round sends back: the questions, and the state to seal. */
export interface Suspension {
  readonly inputRequests: Record<string, InputRequest>;
  readonly state: RoundState;
  /**
   * The questions answered out of band (pages whose link goes in the call's result) that are not
   * answered yet: the era parks the call instead of sending an InputRequiredResult.
   */
  readonly outOfBand: readonly AskItem[];
}

/**
 * Runs one 2026-07-28 round of a handler by replay. Ask points already answered in earlier rounds
 * return their journaled results in order; the first unanswered point (the frontier) takes its
 * answers from this round's `inputResponses`; the next unanswered point ends the round.
 */
export class ReplayEngine {
  readonly #state: RoundState;
  readonly #responses: Readonly<Record<string, unknown>>;
  readonly #limits: ReplayLimits;
  readonly #journal: Journal;
  #frontierDone = false;
  #suspension: Suspension | undefined;
  readonly #once: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;

  /**
   * @param responses this request's `inputResponses`; on a first round (no state) answers that
   *   arrive under the first question's key are used too (a client may answer before being asked).
   * @param once the server's `ctx.once` store: a round sent twice then runs `fn` once (without one,
   *   each copy of a round runs it, with the same key).
   */
  constructor(
    state: RoundState,
    responses: Readonly<Record<string, unknown>> | undefined,
    limits: ReplayLimits,
    once?: { readonly store: OnceStore; readonly timings: OnceTimings },
  ) {
    this.#once = once;
    this.#state = state;
    this.#responses = responses ?? {};
    this.#limits = limits;
    this.#journal = new Journal(state.journal);
  }

  get suspension(): Suspension | undefined {
    return this.#suspension;
  }

  /** The call's state with what this round journaled so far (a guard-style round seals it). */
  stateSoFar(): RoundState {
    return {
      callId: this.#state.callId,
      rounds: this.#state.rounds,
      journal: this.#journal.entries,
      pending: undefined,
    };
  }

  /** Waits at an ask point; resolves with one result per item (in item order). */
  async ask(point: AskPoint): Promise<ItemResult[]> {
    const replayed = this.#replay(point.fingerprint, point.label);
    if (replayed !== undefined) {
      if (!point.batch) {
        const item = point.items[0]!;
        return [await kindOf(item).decode(item, replayed)];
      }
      const record = replayed as Record<string, Json>;
      return await Promise.all(
        point.items.map((item) => kindOf(item).decode(item, record[item.key] ?? null)),
      );
    }
    return await this.#frontier(point);
  }

  /** `AskEngine`: the fingerprint the journal replays next. */
  upNext(): number | undefined {
    return this.#journal.upNext;
  }

  /** Runs `fn` once per logical call; its result is journaled and replayed on later rounds. */
  async once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    const fp = fingerprint('once', name);
    const replayed = this.#replay(fp, `ctx.once('${name}')`);
    if (replayed !== undefined) return replayed as T;
    if (!this.#frontierDone && this.#state.pending) {
      // The last round stopped at a question, so replay must reach that question before anything new.
      throw new ReplayDivergenceError(this.#journal.position, `ctx.once('${name}')`);
    }
    const key = `${this.#state.callId}.${name}`;
    const value = this.#once
      ? await runOnce(this.#once.store, key, () => fn(key), this.#once.timings)
      : await fn(key);
    // Round-trip through JSON now, so the first round sees exactly what later rounds will replay.
    const json = JSON.parse(JSON.stringify(value ?? null)) as T;
    this.#journal.push(fp, json);
    return json;
  }

  /**
   * `AskEngine`: a round that asks nothing. The first time the handler gets here the round ends
   * (no questions, only the state); the call sent again goes on past it.
   */
  async yieldRound(fp: number, label: string): Promise<void> {
    if (this.#replay(fp, label) !== undefined) return;
    const pending = this.#state.pending;
    if (!this.#frontierDone) {
      this.#frontierDone = true;
      if (pending?.fingerprint === fp) {
        this.#journal.push(fp, 1);
        return;
      }
      if (pending) throw new ReplayDivergenceError(this.#journal.position, label);
    }
    if (this.#state.rounds + 1 > this.#limits.maxRounds) throw new RoundLimitError(this.#limits.maxRounds);
    this.#suspension = {
      inputRequests: {},
      state: {
        callId: this.#state.callId,
        rounds: this.#state.rounds + 1,
        journal: this.#journal.entries,
        pending: { fingerprint: fp, tries: 0 },
      },
      outOfBand: [],
    };
    throw SUSPEND;
  }

  #replay(fp: number, label: string): Json | undefined {
    if (this.#suspension) throw SUSPEND;
    return this.#journal.next(fp, label);
  }

  /**
   * The ask point the journal has no answer for: answered by this request's responses (results from
   * the partial answers of earlier rounds, pages that answer themselves, and usable responses), or
   * the round ends there, asking what is still open (invalid answers again, with their reasons).
   */
  async #frontier(point: AskPoint): Promise<ItemResult[]> {
    const pending = this.#state.pending;
    const answering = !this.#frontierDone;
    this.#frontierDone = true;
    if (answering && pending && pending.fingerprint !== point.fingerprint) {
      throw new ReplayDivergenceError(this.#journal.position, point.label);
    }
    const partial: Record<string, Json> = answering && pending?.partial ? { ...pending.partial } : {};
    const read: Answers = { results: new Map(), reasons: new Map(), unfinished: new Set() };
    const { results, reasons, unfinished } = read;
    for (const item of point.items) {
      const kind = kindOf(item);
      if (item.key in partial) {
        results.set(item.key, await kind.decode(item, partial[item.key]!));
        continue;
      }
      if (kind.outOfBand?.(item)) {
        // Never sent: its page answers it. Looked at once, as if the person agreed to open it.
        const settled = await kind.settle!(item, { action: 'accept' }, lookOnce);
        if (settled !== undefined) results.set(item.key, settled);
        continue;
      }
      const reply =
        answering && Object.hasOwn(this.#responses, item.key) ? this.#responses[item.key] : undefined;
      if (reply === undefined) continue;
      const checked = kind.check(item, reply);
      if (checked.status === 'malformed') throw new MalformedResponseError(checked.problem);
      if (checked.status === 'invalid') reasons.set(item.key, checked.reason);
      else if (!kind.settle) results.set(item.key, checked.result);
      else {
        // Not settled yet (a flow's page still open): asked again in the next round.
        const settled = await kind.settle(item, checked.result, lookOnce);
        if (settled !== undefined) results.set(item.key, settled);
        else if ((checked.result as { action?: unknown }).action === 'accept') unfinished.add(item.key);
      }
    }
    if (results.size === point.items.length) return this.#journaled(point, results);
    const tries = answering && pending ? pending.tries : 0;
    const nextTries = reasons.size > 0 ? tries + 1 : tries;
    if (reasons.size > 0 && nextTries >= this.#limits.maxTries) {
      throw new TooManyInvalidAnswersError(nextTries, [...reasons.values()].join(' '));
    }
    if (this.#state.rounds + 1 > this.#limits.maxRounds) throw new RoundLimitError(this.#limits.maxRounds);
    this.#suspension = this.#suspensionAt(point, partial, read, nextTries);
    throw SUSPEND;
  }

  /** Every question of the point answered: journaled (one entry; a batch's by key), and the results. */
  #journaled(point: AskPoint, results: ReadonlyMap<string, ItemResult>): ItemResult[] {
    const encode = (item: AskItem) => kindOf(item).encode(item, results.get(item.key)!);
    const entry: Json = point.batch
      ? Object.fromEntries(point.items.map((item) => [item.key, encode(item)]))
      : encode(point.items[0]!);
    this.#journal.push(point.fingerprint, entry);
    return point.items.map((item) => results.get(item.key)!);
  }

  /** Where the round ends: the questions still open, asked (again, with reasons), and the state so far. */
  #suspensionAt(point: AskPoint, partial: Record<string, Json>, read: Answers, tries: number): Suspension {
    const { results, reasons, unfinished } = read;
    const inputRequests: Record<string, InputRequest> = {};
    const outOfBand: AskItem[] = [];
    for (const item of point.items) {
      const kind = kindOf(item);
      if (results.has(item.key)) {
        partial[item.key] = kind.encode(item, results.get(item.key)!);
        continue;
      }
      if (kind.outOfBand?.(item)) outOfBand.push(item);
      else
        inputRequests[item.key] = kind.request.modern(
          item,
          unfinished.has(item.key)
            ? `${NOT_FINISHED_YET}\n\n${questionMessage(item)}`
            : questionMessage(item, reasons.get(item.key)),
        );
    }
    const pending: PendingAsk = {
      fingerprint: point.fingerprint,
      tries,
      ...(Object.keys(partial).length > 0 && { partial }),
    };
    const state = {
      callId: this.#state.callId,
      rounds: this.#state.rounds + 1,
      journal: this.#journal.entries,
      pending,
    };
    return { inputRequests, state, outOfBand };
  }
}

/** What one request answers of an ask point's questions. */
interface Answers {
  readonly results: Map<string, ItemResult>;
  /** Why an answer was invalid, by question key: it is asked again with the reason. */
  readonly reasons: Map<string, string>;
  /** Pages the client said were finished, still open. */
  readonly unfinished: Set<string>;
}

/** On 2026-07-28 the server looks at a flow once per round; a flow still pending is asked again. */
export const lookOnce: FlowWatch = (flow) => flow.kit.check(flow.id, flow.principal);
