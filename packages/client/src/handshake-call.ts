import { UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { askUrl } from './ask-url.js';
import type { CallState } from './call-state.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import type { AnswerSummary } from './events.js';
import { sendLeg } from './send-leg.js';

/**
 * Drives one handshake-era call. The server asks its questions over the session while the request
 * is open (see `registerHandshakeHandlers`); this only sends the request and, when a 2025-11-25
 * server answers with a URL-required error (-32042), walks the person through each URL and retries
 * the call once they are done.
 */
export async function runHandshakeCall(
  connection: Connection,
  call: CallState,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let leg = 1;
  while (true) {
    try {
      return await sendLeg(connection, call, leg, params);
    } catch (error) {
      const required = error instanceof ParleyError ? error.cause : undefined;
      if (!(required instanceof UrlElicitationRequiredError)) throw error;
      if (leg >= connection.settings.maxRounds) {
        throw new ParleyError(
          'round-limit',
          `${connection.server.name} still required URLs after ${leg} attempts of ${describeCall(call.info)}; raise maxRounds or report a loop to its authors`,
          { server: connection.server.name, call: call.info, data: required.elicitations },
        );
      }
      await visitRequiredUrls(connection, call, required);
      leg += 1;
    }
  }
}

async function visitRequiredUrls(
  connection: Connection,
  call: CallState,
  required: UrlElicitationRequiredError,
) {
  const group = `${call.id}:required:${call.questions}`;
  const answers = await Promise.all(
    required.elicitations.map(async (elicitation) => {
      call.questions += 1;
      const slot = { call, round: call.questions, group };
      const outcome = await askUrl(connection, slot, elicitation, 'wait-first');
      const action = outcome.kind === 'answer' ? outcome.result.action : 'cancel';
      if (outcome.kind === 'unshowable' || outcome.refused !== undefined) {
        const reason = outcome.kind === 'unshowable' ? outcome.reason : outcome.refused!;
        connection.emit({
          type: 'skipped',
          callId: call.id,
          round: slot.round,
          reason,
          answered: action === 'decline' ? 'decline' : 'cancel',
          at: Date.now(),
        });
      }
      return { method: 'elicitation/create', action } satisfies AnswerSummary;
    }),
  );
  call.lastAnswers = answers;
  connection.emit({ type: 'answers', callId: call.id, round: call.questions, answers, at: Date.now() });
  const refusal = answers.find((answer) => answer.action !== 'accept');
  if (refusal !== undefined) {
    throw new ParleyError(
      refusal.action === 'decline' ? 'declined' : 'cancelled',
      `${describeCall(call.info)} on ${connection.server.name} needs a page opened first, and the person ${refusal.action === 'decline' ? 'declined' : 'cancelled'}; the call was not retried`,
      { server: connection.server.name, call: call.info, data: required.elicitations },
    );
  }
}
