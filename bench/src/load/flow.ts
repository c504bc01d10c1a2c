import { answerOf, keyOf, resultText } from '../survey.js';
import type { KeepAlivePoster } from './http-post.js';
import { openingRequest, REQUEST_HEADERS, retryRequest } from './messages.js';

/** Hands out JSON-RPC ids; every request of a run gets a new one. */
export class IdSource {
  #next = 1;
  next(): number {
    return this.#next++;
  }
}

/** What one finished flow reports. */
export interface FlowRecord {
  /** Round-trip time of each request, in nanoseconds. */
  readonly roundNs: readonly number[];
  /** `requestState` length after each answered question (index 0: the opening round's state). */
  readonly stateChars: readonly number[];
}

/** A server answered something other than the next step of the survey. */
export class FlowError extends Error {
  constructor(step: string, status: number, body: string) {
    super(`Survey flow broke at ${step}: HTTP ${status}, ${body.slice(0, 300)}`);
    this.name = 'FlowError';
  }
}

interface JsonRpcReply {
  id?: unknown;
  result?: {
    resultType?: string;
    inputRequests?: Record<string, unknown>;
    requestState?: string;
    content?: { type: string; text?: string }[];
  };
  error?: unknown;
}

/** The JSON-RPC message in a reply body: plain JSON, or the last `data:` line of an SSE stream. */
export function parseReply(body: string): JsonRpcReply | undefined {
  let text = body;
  if (!body.startsWith('{')) {
    const data = body.split('\n').filter((line) => line.startsWith('data:'));
    text = data.at(-1)?.slice(5) ?? '';
  }
  try {
    return JSON.parse(text) as JsonRpcReply;
  } catch {
    return undefined;
  }
}

/**
 * Runs one survey flow of `questions` questions to completion, checking every reply: the id is
 * echoed, each round asks exactly the next question, and the final text holds every answer.
 */
export async function runFlow(
  poster: KeepAlivePoster,
  questions: number,
  ids: IdSource,
): Promise<FlowRecord> {
  const roundNs: number[] = [];
  const stateChars: number[] = [];
  const answers: string[] = [];
  let requestState: string | undefined;
  for (let round = 0; round <= questions; round++) {
    const id = ids.next();
    const body =
      requestState === undefined
        ? openingRequest(id, questions)
        : retryRequest(id, questions, round - 1, requestState);
    const started = process.hrtime.bigint();
    const reply = await poster.post(body, REQUEST_HEADERS);
    roundNs.push(Number(process.hrtime.bigint() - started));
    const message = parseReply(reply.body);
    const step = `round ${round + 1} of ${questions + 1}`;
    if (reply.status !== 200 || message?.id !== id || !message.result) {
      throw new FlowError(step, reply.status, reply.body);
    }
    const { result } = message;
    if (round < questions) {
      const keys = Object.keys(result.inputRequests ?? {});
      if (result.resultType !== 'input_required' || keys.length !== 1 || keys[0] !== keyOf(round)) {
        throw new FlowError(step, reply.status, reply.body);
      }
      if (typeof result.requestState !== 'string') throw new FlowError(step, reply.status, reply.body);
      requestState = result.requestState;
      stateChars.push(requestState.length);
      answers.push(answerOf(round));
    } else if (result.resultType !== 'complete' || result.content?.[0]?.text !== resultText(answers)) {
      throw new FlowError(step, reply.status, reply.body);
    }
  }
  return { roundNs, stateChars };
}
