import { isRecord } from '@parley/core';
import type { HttpReply } from '../lb/send.js';

/** One question of an InputRequiredResult, as the driver needs it. */
export interface Question {
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: {
    properties?: Record<string, { default?: unknown; oneOf?: { const: unknown }[] }>;
  };
  readonly url?: string;
}

/** What one round came back with. */
export type Outcome =
  | {
      readonly kind: 'input_required';
      readonly questions: Readonly<Record<string, Question>>;
      readonly requestState: string | undefined;
    }
  | {
      readonly kind: 'complete';
      readonly text: string;
      readonly data: Record<string, unknown>;
      readonly isError: boolean;
    }
  | {
      readonly kind: 'rpc_error';
      readonly code: number;
      readonly message: string;
      readonly httpStatus: number;
    }
  /** No usable answer: the request may or may not have been served (connection cut, 502, ...). */
  | { readonly kind: 'unclear'; readonly reason: string }
  /** An answer this driver does not understand: a failure, never retried. */
  | { readonly kind: 'bad'; readonly reason: string };

/** Reads a 2026-07-28 reply (JSON, or an SSE stream whose last message is the response). */
export function outcomeOf(reply: HttpReply): Outcome {
  if (reply.status === 0)
    return { kind: 'unclear', reason: `no response (${reply.error ?? 'connection lost'})` };
  if (reply.status === 502 || reply.status === 503 || reply.status === 504) {
    return { kind: 'unclear', reason: `HTTP ${reply.status} from the balancer` };
  }
  let message: unknown;
  try {
    message = JSON.parse(lastMessage(reply));
  } catch {
    return { kind: 'bad', reason: `HTTP ${reply.status}, not JSON-RPC: ${reply.body.slice(0, 120)}` };
  }
  if (!isRecord(message)) return { kind: 'bad', reason: 'the response is not a JSON-RPC object' };
  if (isRecord(message.error)) {
    return {
      kind: 'rpc_error',
      code: Number(message.error.code),
      message: String(message.error.message),
      httpStatus: reply.status,
    };
  }
  const result = message.result;
  if (!isRecord(result)) {
    // e.g. an OAuth error body ({"error":"invalid_token"}): the status and the start of the body say which.
    return {
      kind: 'bad',
      reason: `HTTP ${reply.status}, the response has neither result nor error: ${reply.body.slice(0, 120)}`,
    };
  }
  if (result.resultType === 'input_required') {
    const questions: Record<string, Question> = {};
    for (const [key, request] of Object.entries(isRecord(result.inputRequests) ? result.inputRequests : {})) {
      if (!isRecord(request) || request.method !== 'elicitation/create' || !isRecord(request.params)) {
        return { kind: 'bad', reason: `input request '${key}' is not an elicitation` };
      }
      questions[key] = request.params as unknown as Question;
    }
    const state = typeof result.requestState === 'string' ? result.requestState : undefined;
    return { kind: 'input_required', questions, requestState: state };
  }
  const content = Array.isArray(result.content) ? result.content : [];
  const first = content[0] as { type?: string; text?: string } | undefined;
  return {
    kind: 'complete',
    text: first?.type === 'text' ? String(first.text) : '',
    data: isRecord(result.structuredContent) ? result.structuredContent : {},
    isError: result.isError === true,
  };
}

function lastMessage(reply: HttpReply): string {
  const type = String(reply.headers['content-type'] ?? '');
  if (!type.startsWith('text/event-stream')) return reply.body;
  const data = reply.body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
  return data.at(-1) ?? '';
}

/**
 * Why a reply (to any request: a round or a page) is an unclear failure worth sending the request
 * again for: no response, the balancer's 502/503/504, or a replica's "shutting down; retry" error.
 * `undefined` when the reply is a real answer.
 */
export function unclearReason(reply: HttpReply): string | undefined {
  if (reply.status === 0 || reply.status === 502 || reply.status === 503 || reply.status === 504) {
    const outcome = outcomeOf(reply);
    return outcome.kind === 'unclear' ? outcome.reason : `HTTP ${reply.status}`;
  }
  if (!String(reply.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  const outcome = outcomeOf(reply);
  // Requests a replica was serving when it shut down: "The server is shutting down; retry the request."
  if (outcome.kind === 'rpc_error' && outcome.code === -32603 && /retry/i.test(outcome.message)) {
    return outcome.message;
  }
  return undefined;
}
