import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { CreateTaskResult, EraCall, EraModule, TaskCall } from '../eras/era.js';
import { handshakeEra } from '../eras/handshake.js';
import { modernEra } from '../eras/modern.js';
import type { RoundObserver } from '../middleware.js';
import type { CallRequest, EraName } from '../request/call-request.js';

export type { CallSpec } from '../eras/era.js';

/** The module that serves each era. A new protocol revision is one more entry. */
const ERAS: Record<EraName, EraModule> = { modern: modernEra, handshake: handshakeEra };

/**
 * Runs a handler for one request on its era: on 2026-07-28 by replaying the journal in the request's
 * sealed state (a round ends with an InputRequiredResult at the first unanswered question); on the
 * 2025 eras by sending questions to the client over the session.
 */
export function runCall<R>(
  request: CallRequest,
  call: EraCall<R>,
  observe: RoundObserver | undefined,
  task: TaskCall<R> | undefined,
): Promise<R | InputRequiredResult | CreateTaskResult> {
  // Not `async`: the era's promise is the call's, with no link around it while the call waits.
  return ERAS[request.era].run(request, call, observe, task);
}
