/**
 * The one workload every server serves: a tool `survey` that asks `questions` questions in turn
 * (one per round) and answers with everything it was told. All three servers implement exactly
 * this, and the load generator sends the same bytes to each of them.
 */

export const TOOL = 'survey';
export const PROTOCOL_VERSION = '2026-07-28';
/** Longest flow a server must accept (Parley's default round cap is 20). */
export const MAX_QUESTIONS = 20;

/** The `inputRequests` key of question `index` (0-based). */
export const keyOf = (index: number): string => `q${index}`;

/** The message of question `index` of a flow of `count`. */
export const messageOf = (index: number, count: number): string => `Question ${index + 1} of ${count}?`;

/** The answer the scripted person gives to question `index`. */
export const answerOf = (index: number): string => `answer ${index + 1}`;

/** The requestedSchema of every question: one required free-text field named `answer`. */
export const ANSWER_SCHEMA: {
  type: 'object';
  properties: { answer: { type: 'string' } };
  required: string[];
} = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
};

/** The text the tool finally returns, given the answers in order. */
export const resultText = (answers: readonly string[]): string =>
  `Answered ${answers.length}: ${answers.join(', ')}`;

/** Reads a valid question count from tool arguments; `undefined` when it is not one. */
export function questionCount(args: unknown): number | undefined {
  const value = (args as { questions?: unknown } | null)?.questions;
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_QUESTIONS
    ? (value as number)
    : undefined;
}
