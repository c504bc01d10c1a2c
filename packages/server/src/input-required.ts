import type { BatchItem, BatchResult } from './ask-types.js';
import type { Json } from './state/round-state.js';

const GUARD_ASK: unique symbol = Symbol.for('parley.inputRequired');

/**
 * What a guard-style handler returns to ask its questions and end the round: see
 * {@link inputRequired}. The era turns it into an `InputRequiredResult` (2026-07-28) or asks the
 * questions over the session and runs the handler again (2025 eras).
 */
export interface InputRequired<Q extends Record<string, BatchItem> = Record<string, BatchItem>> {
  readonly [GUARD_ASK]: true;
  readonly questions: Q;
  readonly data: Json | undefined;
}

/** The answers of this round to `Q`, by key; a key is missing until the person answered it validly. */
export type RoundAnswers<Q extends Record<string, BatchItem>> = { [K in keyof Q]?: BatchResult<Q[K]> };

/**
 * Guard style (as in FastMCP): the handler reads this round's answers with `await ctx.answers(questions)`,
 * and when something is missing returns `inputRequired(questions, { data })`. The handler runs again
 * from the top with the answers; `data` (your own JSON, e.g. which step you are at) comes back from
 * `ctx.data()`. On 2026-07-28 it travels sealed in `requestState` with the same codec, key ring and
 * binding as every Parley state (the client can neither read nor change it); on the 2025 eras the
 * server asks the questions over the session and runs the handler again in the same request.
 *
 * Only answers to the questions the previous round asked count: answers the client sends for
 * questions it was not asked are ignored.
 *
 * @example
 * const questions = { confirm: input.elicit('Delete 3 files?', ask.boolean()) };
 * server.tool('clean', {}, async (_args, ctx) => {
 *   const { confirm } = await ctx.answers(questions);
 *   if (!confirm) return inputRequired(questions, { data: { files: 3 } });
 *   if (confirm.action !== 'accept' || !confirm.value) return 'Nothing deleted.';
 *   return `Deleted ${ctx.data<{ files: number }>()?.files} files.`;
 * });
 */
export function inputRequired<Q extends Record<string, BatchItem>>(
  questions: Q,
  options: { readonly data?: Json } = {},
): InputRequired<Q> {
  if (Object.keys(questions).length === 0)
    throw new TypeError('inputRequired() needs at least one question, e.g. { confirm: input.elicit(...) }.');
  return {
    [GUARD_ASK]: true,
    questions,
    data: options.data === undefined ? undefined : copyJson(options.data),
  };
}

/** Whether a handler returned {@link inputRequired}. */
export function isInputRequired(value: unknown): value is InputRequired {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[GUARD_ASK] === true
  );
}

/** Author data round-trips through JSON now, so the first round sees what later rounds will. */
function copyJson(value: Json): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}
