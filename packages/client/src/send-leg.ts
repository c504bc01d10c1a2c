import type { CallState } from './call-state.js';
import { checkLimit } from './check-limit.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import { sendRequest } from './tool-call-request.js';
import { translateError } from './translate-error.js';

/** Longest timeout `setTimeout` accepts; the SDK's own timer is switched off in favour of ours. */
const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * Sends one request leg of a call through the SDK (which adds the JSON-RPC id, the `_meta` envelope
 * on the modern era, and the HTTP headers) and returns the raw result, `input_required` included.
 * The leg is bounded by `requestTimeoutMs` of server time, paused while the person answers.
 */
export async function sendLeg(
  connection: Connection,
  call: CallState,
  round: number,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  call.round = round;
  connection.emit({
    type: 'request',
    callId: call.id,
    round,
    method: call.method,
    name: call.info.name,
    call: call.info,
    era: connection.era,
    at: Date.now(),
  });
  const expired = new AbortController();
  const timer = connection.startTimer(() =>
    expired.abort(
      new ParleyError(
        'timeout',
        `${connection.server.name} did not answer ${describeCall(call.info)} within ${connection.settings.requestTimeoutMs} ms (time spent on questions not counted); raise requestTimeoutMs if it needs longer`,
        { server: connection.server.name, call: call.info },
      ),
    ),
  );
  const signal = AbortSignal.any([call.signal, expired.signal]);
  try {
    const result: unknown = await connection.callScope.run(call, () =>
      sendRequest(connection, call.method, params, {
        signal,
        timeout: NO_SDK_TIMEOUT,
        allowInputRequired: true,
      }),
    );
    const record = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    checkLimit(
      connection,
      call,
      'resultBytes',
      Buffer.byteLength(JSON.stringify(record)),
      'a result too large',
    );
    return record;
  } catch (error) {
    if (signal.aborted) throw stopReason(connection, call, signal.reason);
    throw translateError(error, connection.server.name, call.info);
  } finally {
    timer.stop();
  }
}

/** Why a call stopped: our own error when we stopped it, else a plain cancellation. */
export function stopReason(connection: Connection, call: CallState, reason: unknown): ParleyError {
  if (reason instanceof ParleyError) return reason;
  return new ParleyError(
    'cancelled',
    `${describeCall(call.info)} on ${connection.server.name} was cancelled`,
    {
      server: connection.server.name,
      call: call.info,
      cause: reason,
    },
  );
}
