import { ProtocolError } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import type { QuestionSlot } from './question.js';
import type { SamplingDecline } from './types.js';

/** The JSON-RPC error the 2025 specs' sampling pages give for "User rejected sampling request". */
export const SAMPLING_REJECTED_CODE = -1;

/** Whether a host's answer to a sampling request is the person's decline. */
export function isSamplingDecline(value: unknown): value is SamplingDecline {
  return isRecord(value) && value.action === 'decline';
}

/** 2025 eras: the error the client answers a declined `sampling/createMessage` with. */
export function samplingRejected(): ProtocolError {
  return new ProtocolError(SAMPLING_REJECTED_CODE, 'User rejected sampling request');
}

/**
 * 2026-07-28: a declined sampling request gets no answer, so the call is not retried and ends here
 * (the server keeps no state for it: nothing waits on the other side).
 */
export function samplingDeclinedCall(connection: Connection, slot: QuestionSlot): ParleyError {
  const where = { server: connection.server.name, call: slot.call.info };
  return new ParleyError(
    'declined',
    `The person declined ${connection.server.name}'s sampling request during ${describeCall(slot.call.info)}; on MCP 2026-07-28 a declined sampling request is not answered, so the call was not retried`,
    where,
  );
}
