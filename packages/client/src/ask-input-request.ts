import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import { askForm } from './ask-form.js';
import { askUrl, type UrlFlow } from './ask-url.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import type { AnswerSummary } from './events.js';
import { callHost } from './host-call.js';
import { askContext, type QuestionOutcome, type QuestionSlot } from './question.js';
import { isSamplingDecline, samplingDeclinedCall } from './sampling-decline.js';
import type { AskContext } from './types.js';

/** The input request methods MCP defines. */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

export function isInputRequestMethod(method: unknown): method is InputRequestMethod {
  return typeof method === 'string' && (INPUT_REQUEST_METHODS as readonly string[]).includes(method);
}

/** One input request answered: the bare result to send back, and a summary without content. */
export interface InputAnswer {
  readonly response: unknown;
  readonly summary: AnswerSummary;
  /** Set when the client answered without asking: why the question was not shown. */
  readonly skipped?: { readonly reason: string; readonly answered: 'cancel' | 'decline' };
}

/** Reads `elicitation/create` params and asks the question in the right mode. */
export async function askElicitation(
  connection: Connection,
  slot: QuestionSlot,
  params: unknown,
  flow: UrlFlow,
): Promise<QuestionOutcome> {
  if (!isRecord(params)) return { kind: 'unshowable', reason: 'the elicitation has no params object' };
  const mode = params.mode ?? 'form';
  if (typeof params.message !== 'string') {
    return { kind: 'unshowable', reason: 'the elicitation has no message to show' };
  }
  if (mode === 'form') return askForm(connection, slot, params.message, params.requestedSchema);
  if (mode === 'url') {
    if (typeof params.url !== 'string')
      return { kind: 'unshowable', reason: 'the URL elicitation has no url' };
    const elicitationId = typeof params.elicitationId === 'string' ? params.elicitationId : undefined;
    return askUrl(
      connection,
      slot,
      {
        message: params.message,
        url: params.url,
        ...(elicitationId !== undefined && { elicitationId }),
      },
      flow,
    );
  }
  return {
    kind: 'unshowable',
    reason: `the elicitation mode ${JSON.stringify(mode)} is not one MCP defines`,
  };
}

/**
 * Answers one modern-era input request (an `inputRequests` entry whose method is already known to be
 * valid). A question the client cannot show is answered `cancel`.
 */
export async function answerInputRequest(
  connection: Connection,
  slot: QuestionSlot,
  method: InputRequestMethod,
  params: unknown,
): Promise<InputAnswer> {
  const key = slot.key;
  if (method === 'elicitation/create') {
    const outcome = await askElicitation(connection, slot, params, 'wait-first');
    if (outcome.kind === 'unshowable') {
      return {
        response: { action: 'cancel' },
        summary: { ...(key !== undefined && { key }), method, action: 'cancel' },
        skipped: { reason: outcome.reason, answered: 'cancel' },
      };
    }
    return {
      response: outcome.result,
      summary: { ...(key !== undefined && { key }), method, action: outcome.result.action },
      ...(outcome.refused !== undefined && { skipped: { reason: outcome.refused, answered: 'decline' } }),
    };
  }
  const response = await runHostCapability(connection, slot, method, params);
  if (method === 'sampling/createMessage' && isSamplingDecline(response)) {
    throw samplingDeclinedCall(connection, slot);
  }
  return { response, summary: { ...(key !== undefined && { key }), method, action: 'accept' } };
}

/** Sampling and roots: only for hosts that declared them; they take their turn like any question. */
export function runHostCapability(
  connection: Connection,
  slot: QuestionSlot,
  method: 'sampling/createMessage' | 'roots/list',
  params: unknown,
): Promise<unknown> {
  const { ui } = connection;
  const sampling = ui.sampling;
  const roots = ui.roots;
  const handler: ((context: AskContext) => Promise<unknown>) | undefined =
    method === 'sampling/createMessage'
      ? sampling && ((context) => sampling.call(ui, params as CreateMessageRequestParams, context))
      : roots && ((context) => roots.call(ui, context));
  if (handler === undefined) {
    throw new ParleyError(
      'protocol',
      `${connection.server.name} sent a ${method} request during ${describeCall(slot.call.info)}, but this client did not declare ${method === 'roots/list' ? 'roots' : 'sampling'}; the server must not ask for it`,
      { server: connection.server.name, call: slot.call.info },
    );
  }
  return connection.queue.ask(slot.group, slot.call.signal, async (position) => {
    const outcome = await callHost(
      slot.call.signal,
      connection.settings.questionTimeoutMs,
      (signal) => handler(askContext(connection, slot, position, signal)),
      { server: connection.server.name, call: slot.call.info },
    );
    if (outcome.kind === 'timeout') {
      throw new ParleyError(
        'timeout',
        `The host did not answer ${method} for ${connection.server.name} within ${connection.settings.questionTimeoutMs} ms`,
        { server: connection.server.name, call: slot.call.info },
      );
    }
    return { value: outcome.value };
  });
}
