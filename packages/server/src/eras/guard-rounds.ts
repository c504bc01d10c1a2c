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
  const reasons = new Map<string, string>();
  return {
    data: state.guard?.data ?? undefined,
    reasonFor: (key) => reasons.get(key),
    async answers(items, fingerprint) {
      const found: Record<string, ItemResult> = {};
      if (state.guard?.asked !== fingerprint) return found;
      for (const item of items) {
        if (!Object.hasOwn(responses, item.key)) continue;
        const kind = kindOf(item);
        const checked = kind.check(item, responses[item.key]);
        if (checked.status === 'malformed') throw new MalformedResponseError(checked.problem);
        if (checked.status === 'invalid') {
          reasons.set(item.key, checked.reason);
          continue;
        }
        const result = kind.settle ? await kind.settle(item, checked.result, lookOnce) : checked.result;
        if (result !== undefined) found[item.key] = result;
      }
      return found;
    },
  };
}

/** The round a guard-style `inputRequired(questions, { data })` ends with on 2026-07-28. */
export function guardSuspension(
  soFar: RoundState,
  items: readonly AskItem[],
  data: Json | undefined,
  guard: ModernGuardRound,
  maxRounds: number,
): Suspension {
  if (soFar.rounds + 1 > maxRounds) throw new RoundLimitError(maxRounds);
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
  return { data, answers: async (_items, asked) => (asked === fingerprint ? byKey : {}) };
}
