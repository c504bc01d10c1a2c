import { inspectUrl, type UrlInspection } from '@parley/core/url';
import { checkLimit } from './check-limit.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import { callHost } from './host-call.js';
import { askContext, describeQuestion, type QuestionOutcome, type QuestionSlot } from './question.js';
import type { Position } from './question-queue.js';
import type { ElicitResult, UrlConsent, UrlRequest } from './types.js';

/**
 * When the server hears the person's consent:
 * - `wait-first`: after the page opened, the person says when they are done (`waitForUrl`), or the
 *   server announces the flow finished; `finished` answers `accept` and the call is retried,
 *   `cancel` answers `cancel`. Used on the modern era and for 2025-11-25 URL-required errors.
 * - `answer-first`: `accept` goes back at once (a handshake-era server is waiting for it); the
 *   person stays on the question until the server announces the flow finished or the call ends.
 *   If they cancel meanwhile, the call is stopped.
 */
export type UrlFlow = 'wait-first' | 'answer-first';

/**
 * Asks a URL question. The URL is inspected before anything else and never fetched. A URL that
 * `inspectUrl` does not allow is shown only as refused and answered `decline`: an explicit "no" the
 * client gives on the person's behalf, rather than `cancel` (a dismissal the server may retry).
 */
export async function askUrl(
  connection: Connection,
  slot: QuestionSlot,
  request: UrlRequest,
  flow: UrlFlow,
): Promise<QuestionOutcome> {
  if (!connection.ui.modes.url) {
    return { kind: 'unshowable', reason: 'this host does not open URLs (it declared no URL mode)' };
  }
  checkLimit(connection, slot.call, 'messageLength', request.message.length, 'a question message too long');
  checkLimit(connection, slot.call, 'messageLength', request.url.length, 'a URL too long');
  const inspection = inspectUrl(request.url);
  if (!inspection.allowed) {
    await connection.queue.ask(slot.group, slot.call.signal, async (position) => {
      await consent(connection, slot, request, inspection, position).catch(() => undefined);
      return { value: undefined };
    });
    const reasons = inspection.warnings.map((warning) => warning.message).join(' ');
    return {
      kind: 'answer',
      result: { action: 'decline' },
      refused: `Parley does not open this URL. ${reasons}`.trim(),
    };
  }
  const result = await connection.queue.ask<ElicitResult>(slot.group, slot.call.signal, async (position) => {
    if (slot.together?.cancelled) return { value: { action: 'cancel' } };
    const action = await consent(connection, slot, request, inspection, position);
    if (action === 'cancel' && slot.together) slot.together.cancelled = true;
    if (action !== 'accept') return { value: { action } };
    if (flow === 'wait-first') {
      const done = await waitUntilDone(connection, slot, request, inspection, position);
      if (done === 'cancel' && slot.together) slot.together.cancelled = true;
      return { value: { action: done === 'finished' ? 'accept' : 'cancel' } };
    }
    const hold = waitUntilDone(connection, slot, request, inspection, position).then(
      (done) => {
        if (done === 'cancel') slot.call.stop(personCancelled(connection, slot, inspection));
      },
      () => {},
    );
    return { value: { action: 'accept' }, hold };
  });
  return { kind: 'answer', result };
}

async function consent(
  connection: Connection,
  slot: QuestionSlot,
  request: UrlRequest,
  inspection: UrlInspection,
  position: Position,
): Promise<UrlConsent['action']> {
  const outcome = await callHost(
    slot.call.signal,
    connection.settings.questionTimeoutMs,
    (signal) => connection.ui.url(request, inspection, askContext(connection, slot, position, signal)),
    { server: connection.server.name, call: slot.call.info },
  );
  if (outcome.kind === 'timeout') return 'cancel';
  const action =
    typeof outcome.value === 'object' && outcome.value !== null ? outcome.value.action : undefined;
  if (action === 'accept' || action === 'decline' || action === 'cancel') return action;
  throw new ParleyError(
    'invalid-answer',
    `The host answered the URL question ${describeQuestion(slot.key, request.message)} from ${connection.server.name} during ${describeCall(slot.call.info)} with ${JSON.stringify(outcome.value)}; answer { action: 'accept' | 'decline' | 'cancel' }`,
    { server: connection.server.name, call: slot.call.info },
  );
}

/**
 * Waits until the person says they are done (`finished` / `cancel`), the server announces the flow
 * finished (`finished`), or the question times out (`timeout`). Rejects when the call ends.
 */
async function waitUntilDone(
  connection: Connection,
  slot: QuestionSlot,
  request: UrlRequest,
  inspection: UrlInspection,
  position: Position,
): Promise<'finished' | 'cancel' | 'timeout'> {
  const announced = new AbortController();
  const unwatch =
    request.elicitationId === undefined
      ? () => {}
      : connection.urlFlows.watch(request.elicitationId, () =>
          announced.abort(new Error('The flow finished')),
        );
  try {
    const wait = connection.ui.waitForUrl;
    if (announced.signal.aborted || wait === undefined) return 'finished';
    const signal = AbortSignal.any([slot.call.signal, announced.signal]);
    const outcome = await callHost(
      signal,
      connection.settings.questionTimeoutMs,
      (inner) => wait.call(connection.ui, request, inspection, askContext(connection, slot, position, inner)),
      { server: connection.server.name, call: slot.call.info },
    ).catch((error: unknown) => {
      if (announced.signal.aborted && !slot.call.signal.aborted)
        return { kind: 'value' as const, value: 'finished' as const };
      throw error;
    });
    if (outcome.kind === 'timeout') return 'timeout';
    return outcome.value === 'finished' ? 'finished' : 'cancel';
  } finally {
    unwatch();
  }
}

function personCancelled(connection: Connection, slot: QuestionSlot, inspection: UrlInspection): ParleyError {
  return new ParleyError(
    'cancelled',
    `The person cancelled while ${connection.server.name} waited for the page at ${inspection.host} to finish (${describeCall(slot.call.info)})`,
    { server: connection.server.name, call: slot.call.info },
  );
}
