import type { InputRequest } from '@modelcontextprotocol/server';
import { type AskItem, askPoint, type ItemResult } from '../ask/ask-item.js';
import { kindOf, questionMessage } from '../ask/kind-table.js';
import type { GuardRound } from '../context/guard-round.js';
import { RoundLimitError } from '../errors.js';
import type { Json, RoundState } from '../state/round-state.js';
import { lookOnce, MalformedResponseError, type Suspension } from './replay-engine.js';

/** A guard round on 2026-07-28 whose invalid answers are asked again with their reasons. */
export interface ModernGuardRound extends GuardRound {
  reasonFor(key: string): string | undefined;
}

/**
 * The guard round of a 2026-07-28 request: the answers in `responses` count only for the questions
 * the last round asked (their fingerprint is in the sealed state), each read by its kind's check.
 */
export function modernGuardRound(
  state: RoundState,
  responses: Readonly<Record<string, unknown>>,
): ModernGuardRound {
  return new ModernGuard(state, responses);
}

/** A class, made on every round: its reasons only once an answer is invalid. */
class ModernGuard implements ModernGuardRound {
  readonly data: Json | undefined;
  readonly #state: RoundState;
  readonly #responses: Readonly<Record<string, unknown>>;
  #reasons: Map<string, string> | undefined;
  #mismatched: readonly string[] | undefined;

  constructor(state: RoundState, responses: Readonly<Record<string, unknown>>) {
    this.data = state.guard?.data ?? undefined;
    this.#state = state;
    this.#responses = responses;
  }

  reasonFor(key: string): string | undefined {
    return this.#reasons?.get(key);
  }

  mismatch(): readonly string[] | undefined {
    return this.#mismatched;
  }

  async answers(items: readonly AskItem[], fingerprint: number): Promise<Record<string, ItemResult>> {
    const found: Record<string, ItemResult> = {};
    const { guard } = this.#state;
    if (guard?.asked !== fingerprint) {
      if (guard !== undefined) this.#mismatched = items.map((item) => item.key);
      return found;
    }
    const responses = this.#responses;
    for (const item of items) {
      if (!Object.hasOwn(responses, item.key)) continue;
      const kind = kindOf(item);
      const checked = kind.check(item, responses[item.key]);
      if (checked.status === 'malformed') throw new MalformedResponseError(checked.problem);
      if (checked.status === 'invalid') {
        this.#reasons ??= new Map();
        this.#reasons.set(item.key, checked.reason);
        continue;
      }
      const result = kind.settle ? await kind.settle(item, checked.result, lookOnce) : checked.result;
      if (result !== undefined) found[item.key] = result;
    }
    return found;
  }
}

/** The round a guard-style `inputRequired(questions, { data })` ends with on 2026-07-28. */
export function guardSuspension(
  soFar: RoundState,
  items: readonly AskItem[],
  data: Json | undefined,
  guard: ModernGuardRound,
  maxRounds: number,
): Suspension {
  if (soFar.rounds + 1 > maxRounds) throw new RoundLimitError(maxRounds, guardLoopHint(guard, items));
  const inputRequests: Record<string, InputRequest> = {};
  for (const item of items)
    inputRequests[item.key] = kindOf(item).request.modern(
      item,
      questionMessage(item, guard.reasonFor(item.key)),
    );
  return {
    inputRequests,
    state: {
      ...soFar,
      rounds: soFar.rounds + 1,
      guard: { asked: askPoint(items, true).fingerprint, data: data ?? null },
    },
    outOfBand: [],
  };
}

/** The guard round after the 2025 eras asked `items` over the session and got `results`. */
export function answeredGuardRound(
  items: readonly AskItem[],
  results: readonly ItemResult[],
  data: Json | undefined,
): GuardRound {
  const fingerprint = askPoint(items, true).fingerprint;
  const byKey = Object.fromEntries(items.map((item, index) => [item.key, results[index]]));
  let mismatched: readonly string[] | undefined;
  return {
    data,
    mismatch: () => mismatched,
    async answers(given, asked) {
      if (asked === fingerprint) return byKey;
      mismatched = given.map((item) => item.key);
      return {};
    },
  };
}

/**
 * Why a guard-style call ran into the round cap, when its `ctx.answers()` was given other questions
 * than the round asks (the usual cause: it never sees an answer, so it asks again and again).
 */
export function guardLoopHint(guard: GuardRound | undefined, asking: readonly AskItem[]): string | undefined {
  const given = guard?.mismatch?.();
  if (given === undefined) return undefined;
  const keys = (list: readonly string[]) => list.map((key) => `'${key}'`).join(', ');
  return (
    `its guard passed ctx.answers() the questions ${keys(given)}, but the round asks ${keys(asking.map((item) => item.key))}. ` +
    'Answers count only for exactly the questions the last round asked, so ctx.answers() found none and the guard asked ' +
    'again every round. Pass ctx.answers() the same questions you return with inputRequired()'
  );
}
