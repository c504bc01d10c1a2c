import type { CallEvent } from '@parley/client';

/** One stderr line per call event, for `--verbose`. Never shows what the person typed. */
export function describeEvent(event: CallEvent): string {
  const where = `[call ${event.callId} · round ${event.round}]`;
  switch (event.type) {
    case 'request': {
      const args = event.call.arguments === undefined ? '' : ` ${JSON.stringify(event.call.arguments)}`;
      return `${where} → ${event.method} "${event.call.name}"${args} (${event.era})`;
    }
    case 'input-required': {
      const keys = event.keys.length > 0 ? event.keys.join(', ') : '(no questions)';
      const state = event.stateBytes === null ? 'no state' : `state ${event.stateBytes} bytes`;
      return `${where} ← input_required: ${keys}; ${state}; ${event.ms} ms`;
    }
    case 'elicitation':
      return `${where} ← elicitation/create (${event.mode})${event.key === undefined ? '' : ` "${event.key}"`}`;
    case 'skipped':
      return `${where} not shown${event.key === undefined ? '' : ` "${event.key}"`} (answered ${event.answered}): ${event.reason}`;
    case 'answers':
      return `${where} answered: ${event.answers.map((answer) => `${answer.key ?? answer.method}=${answer.action}`).join(', ')}`;
    case 'url-complete':
      return `${where} the server says the page flow ${event.elicitationId} finished`;
    case 'result':
      return `${where} ← ${event.isError ? 'result (isError)' : 'result'}; call took ${event.ms} ms`;
    case 'error':
      return `${where} ✖ ${event.message}`;
  }
}
