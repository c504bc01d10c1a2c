/**
 * Workload (c), on the wire: how big each server's `requestState` is after each answer of a
 * 20-question flow, against the size of the answers it has to carry.
 */
import { IdSource, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import type { ServerProcess } from '../servers/spawn.js';
import { answerOf, MAX_QUESTIONS } from '../survey.js';

export interface WireState {
  /** `requestState` length after k answers, k = 0 … questions − 1. */
  readonly stateChars: readonly number[];
  /** The answers' own size after k answers: their `content` objects as JSON, in bytes. */
  readonly answerBytes: readonly number[];
  /** The largest `stateChars[k] − answerBytes[k]`: what the state costs beyond the answers. */
  readonly maxOverheadChars: number;
  /** Mean growth of the state per answer. */
  readonly charsPerAnswer: number;
}

/** The answers' own size after each count of answers. */
export function answerBytesSeries(questions: number): number[] {
  const series = [0];
  for (let i = 1; i < questions; i++) {
    series.push(series[i - 1]! + Buffer.byteLength(JSON.stringify({ answer: answerOf(i - 1) })));
  }
  return series;
}

/** Reads the state sizes of one full flow against `server`. */
export async function measureWireState(server: ServerProcess, questions = MAX_QUESTIONS): Promise<WireState> {
  const poster = new KeepAlivePoster(server.url, 1);
  try {
    const { stateChars } = await runFlow(poster, questions, new IdSource());
    const answerBytes = answerBytesSeries(questions);
    const overheads = stateChars.map((chars, k) => chars - answerBytes[k]!);
    return {
      stateChars,
      answerBytes,
      maxOverheadChars: Math.max(...overheads),
      charsPerAnswer: (stateChars.at(-1)! - stateChars[0]!) / (questions - 1),
    };
  } finally {
    poster.close();
  }
}
