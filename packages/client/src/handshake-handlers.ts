import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { isRecord, PARLEY_KEY_META } from '@parley/core';
import { askElicitation, runHostCapability } from './ask-input-request.js';
import type { CallState } from './call-state.js';
import type { Connection } from './connection.js';
import type { AnswerSummary } from './events.js';
import type { QuestionSlot } from './question.js';
import { isSamplingDecline, samplingRejected } from './sampling-decline.js';

/** Parley servers name each question on the handshake era with this `params._meta` key. */
export { PARLEY_KEY_META };

/**
 * Registers what a handshake-era server may send this client: `elicitation/create` (only when the
 * host shows forms or URLs), sampling and roots (only when the host implements them), and
 * `notifications/elicitation/complete`. Registered before connecting; on a modern connection the
 * SDK never dispatches server requests, so they stay unused.
 */
export function registerHandshakeHandlers(connection: Connection): void {
  const { sdk, ui } = connection;
  if (ui.modes.form || ui.modes.url) {
    // Not setRequestHandler: the SDK would check the params against its own schema first and answer
    // a form it rejects (FastMCP's untyped multi-select, a pydantic root title) with a long zod dump,
    // before Parley could read it liberally or refuse it with a short reason and a `skipped` event.
    // The fallback handler gets the raw request; askElicitation checks every part of it.
    sdk.fallbackRequestHandler = async (request) => {
      if (request.method !== 'elicitation/create') {
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      }
      const call = callFor(connection, 'elicitation/create');
      const params: unknown = request.params;
      const slot = slotFor(call, params);
      const mode = isRecord(params) ? (params.mode ?? 'form') : 'unknown';
      connection.emit({
        type: 'elicitation',
        callId: call.id,
        round: slot.round,
        ...(slot.key !== undefined && { key: slot.key }),
        mode: mode === 'form' || mode === 'url' ? mode : 'unknown',
        at: Date.now(),
      });
      const outcome = await askElicitation(connection, slot, params, 'answer-first').catch(
        (error: unknown) => {
          call.stop(error instanceof Error ? error : new Error(String(error)));
          throw error;
        },
      );
      if (outcome.kind === 'unshowable') {
        connection.emit({
          type: 'skipped',
          callId: call.id,
          round: slot.round,
          ...keyOf(slot),
          reason: outcome.reason,
          answered: 'error',
          at: Date.now(),
        });
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Parley cannot show this question: ${outcome.reason}`,
        );
      }
      if (outcome.refused !== undefined) {
        connection.emit({
          type: 'skipped',
          callId: call.id,
          round: slot.round,
          ...keyOf(slot),
          reason: outcome.refused,
          answered: 'decline',
          at: Date.now(),
        });
      }
      answered(connection, call, slot, {
        ...keyOf(slot),
        method: 'elicitation/create',
        action: outcome.result.action,
      });
      return outcome.result as never;
    };
  }
  if (ui.sampling) {
    sdk.setRequestHandler('sampling/createMessage', async (request) => {
      const call = callFor(connection, 'sampling/createMessage');
      const slot = slotFor(call, request.params);
      const result = await runHostCapability(connection, slot, 'sampling/createMessage', request.params);
      const declined = isSamplingDecline(result);
      answered(connection, call, slot, {
        ...keyOf(slot),
        method: 'sampling/createMessage',
        action: declined ? 'decline' : 'accept',
      });
      if (declined) throw samplingRejected();
      return result as never;
    });
  }
  if (ui.roots) {
    sdk.setRequestHandler('roots/list', async (request) => {
      const call = callFor(connection, 'roots/list');
      const slot = slotFor(call, request.params);
      const result = await runHostCapability(connection, slot, 'roots/list', request.params);
      answered(connection, call, slot, { ...keyOf(slot), method: 'roots/list', action: 'accept' });
      return result as never;
    });
  }
  sdk.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    const id: unknown = notification.params?.elicitationId;
    if (typeof id !== 'string' || !connection.urlFlows.complete(id)) return;
    const call = connection.calls.current();
    connection.emit({
      type: 'url-complete',
      callId: call?.id ?? 0,
      round: call?.questions ?? 0,
      elicitationId: id,
      at: Date.now(),
    });
  });
}

function callFor(connection: Connection, method: string): CallState {
  // Over HTTP the question arrives on the stream of the call's own POST, which runs in that call's
  // async scope (see Connection.callScope); on stdio nothing tells the calls apart, so the oldest.
  const scoped = connection.callScope.getStore();
  const call = scoped !== undefined && !scoped.stopped ? scoped : connection.calls.current();
  if (call === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Parley answers ${method} only while one of its calls is running (SEP-2260: server requests belong to a client request)`,
    );
  }
  return call;
}

function slotFor(call: CallState, params: unknown): QuestionSlot {
  call.questions += 1;
  const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
  const key = meta?.[PARLEY_KEY_META];
  return {
    call,
    round: call.questions,
    ...(typeof key === 'string' && { key }),
    group: `${call.id}:handshake`,
  };
}

function keyOf(slot: QuestionSlot): { key?: string } {
  return slot.key === undefined ? {} : { key: slot.key };
}

function answered(connection: Connection, call: CallState, slot: QuestionSlot, summary: AnswerSummary): void {
  call.lastAnswers = [summary];
  connection.emit({
    type: 'answers',
    callId: call.id,
    round: slot.round,
    answers: [summary],
    at: Date.now(),
  });
}
