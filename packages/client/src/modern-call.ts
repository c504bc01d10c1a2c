import { isRecord } from '@parley/core';
import { answerInputRequest, type InputAnswer, isInputRequestMethod } from './ask-input-request.js';
import { callDelay } from './call-delay.js';
import type { CallState } from './call-state.js';
import { checkLimit } from './check-limit.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import { sendLeg } from './send-leg.js';

/** Pause before retrying an `input_required` that carried only `requestState` (no questions). */
const STATE_ONLY_PACING_MS = 250;

/**
 * Drives one modern-era call to its end. Each round is a fresh request (new JSON-RPC id, fresh
 * `_meta` from the SDK) with the full original params, the answers to exactly the latest
 * `inputRequests` keys, and the latest `requestState` echoed byte for byte (or none when the server
 * sent none). Questions go to the person one at a time through the connection's queue.
 */
export async function runModernCall(
  connection: Connection,
  call: CallState,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let round = 1;
  let retry: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
  // A call the server parked at a question page goes on when it comes again with its token.
  const sent = connection.resumeTokens.attach(call.method, params);
  while (true) {
    const startedAt = Date.now();
    const result = await sendLeg(connection, call, round, { ...sent, ...retry });
    if (result.resultType !== 'input_required') {
      connection.resumeTokens.remember(call.method, params, result);
      return result;
    }

    const requests = isRecord(result.inputRequests) ? result.inputRequests : {};
    const requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
    const keys = Object.keys(requests);
    connection.emit({
      type: 'input-required',
      callId: call.id,
      round,
      keys,
      stateBytes: requestState === undefined ? null : new TextEncoder().encode(requestState).length,
      at: Date.now(),
      ms: Date.now() - startedAt,
    });
    if (round >= connection.settings.maxRounds) {
      throw new ParleyError(
        'round-limit',
        `${connection.server.name} still asked for input after ${round} rounds of ${describeCall(call.info)}; raise maxRounds if the server really needs more, or report a loop to its authors`,
        { server: connection.server.name, call: call.info, data: result },
      );
    }
    checkInputRequests(connection, call, requests);
    checkLimit(connection, call, 'questionsPerRound', keys.length, 'too many questions in one round');
    const answers = keys.length > 0 ? await answerRound(connection, call, round, requests) : await pace(call);
    retry = {
      ...(answers !== undefined && {
        inputResponses: Object.fromEntries(answers.map((answer) => [answer.key, answer.response])),
      }),
      ...(requestState !== undefined && { requestState }),
    };
    round += 1;
  }
}

/** Every entry must be an input request MCP defines; anything else ends the call before asking. */
function checkInputRequests(
  connection: Connection,
  call: CallState,
  requests: Record<string, unknown>,
): void {
  for (const [key, entry] of Object.entries(requests)) {
    const method = isRecord(entry) ? entry.method : undefined;
    if (!isInputRequestMethod(method)) {
      throw new ParleyError(
        'protocol',
        `${connection.server.name} asked for ${JSON.stringify(method ?? entry)} under the key "${key}" during ${describeCall(call.info)}; MCP input requests are elicitation/create, sampling/createMessage and roots/list, so the call was stopped (a server bug: report it to its authors)`,
        { server: connection.server.name, call: call.info, data: entry },
      );
    }
  }
}

async function answerRound(
  connection: Connection,
  call: CallState,
  round: number,
  requests: Record<string, unknown>,
): Promise<(InputAnswer & { key: string })[]> {
  const group = `${call.id}:${round}`;
  const together = { cancelled: false };
  const answers = await Promise.all(
    Object.entries(requests).map(async ([key, entry]) => {
      const { method, params } = entry as { method: string; params?: unknown };
      if (!isInputRequestMethod(method)) throw new Error('unreachable: checked before asking');
      try {
        const answer = await answerInputRequest(
          connection,
          { call, round, key, group, together },
          method,
          params,
        );
        if (answer.skipped) {
          connection.emit({
            type: 'skipped',
            callId: call.id,
            round,
            key,
            ...answer.skipped,
            at: Date.now(),
          });
        }
        return { ...answer, key };
      } catch (error) {
        // One failed question ends the round: the others are dropped before they are shown.
        call.stop(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    }),
  );
  const summaries = answers.map((answer) => answer.summary);
  call.lastAnswers = summaries;
  connection.emit({ type: 'answers', callId: call.id, round, answers: summaries, at: Date.now() });
  return answers;
}

async function pace(call: CallState): Promise<undefined> {
  call.lastAnswers = [];
  await callDelay(call, STATE_ONLY_PACING_MS);
  return undefined;
}
