import { UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { askUrl } from './ask-url.js';
import { callDelay } from './call-delay.js';
import type { CallState } from './call-state.js';
import { checkLimit } from './check-limit.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import type { AnswerSummary } from './events.js';
import { sendLeg } from './send-leg.js';

/** Requests of a call that may meet the same URL-required error before the client gives up. */
const SAME_URL_TRIES = 4;
/** The first pause before retrying after a URL-required error; it doubles each time the same URLs come back. */
const URL_RETRY_BACKOFF_MS = 250;

/**
 * Drives one handshake-era call. The server asks its questions over the session while the request
 * is open (see `registerHandshakeHandlers`); this only sends the request and, when a 2025-11-25
 * server answers with a URL-required error (-32042), walks the person through each URL and retries
 * the call once they are done. When the server requires the same pages again the client backs off
 * (250 ms before the first retry, doubling), and after four requests it stops with a clear error rather than hammering a
 * server whose flow the host cannot wait for (a scripted host says "finished" at once).
 */
export async function runHandshakeCall(
  connection: Connection,
  call: CallState,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let leg = 1;
  let previous = '';
  let sameTries = 0;
  while (true) {
    try {
      return await sendLeg(connection, call, leg, params);
    } catch (error) {
      const required = error instanceof ParleyError ? error.cause : undefined;
      if (!(required instanceof UrlElicitationRequiredError)) throw error;
      const pages = JSON.stringify(required.elicitations.map(({ url, message }) => [url, message]));
      sameTries = pages === previous ? sameTries + 1 : 1;
      previous = pages;
      if (sameTries >= SAME_URL_TRIES) {
        throw new ParleyError(
          'round-limit',
          `${connection.server.name} still requires the page at ${hostsOf(required)} after it was opened ${sameTries - 1} times for ${describeCall(call.info)}; finish the step in the browser, then run the call again`,
          { server: connection.server.name, call: call.info, data: required.elicitations },
        );
      }
      if (leg >= connection.settings.maxRounds) {
        throw new ParleyError(
          'round-limit',
          `${connection.server.name} still required URLs after ${leg} attempts of ${describeCall(call.info)}; raise maxRounds or report a loop to its authors`,
          { server: connection.server.name, call: call.info, data: required.elicitations },
        );
      }
      await visitRequiredUrls(connection, call, required);
      await callDelay(call, URL_RETRY_BACKOFF_MS * 2 ** (sameTries - 1));
      leg += 1;
    }
  }
}

async function visitRequiredUrls(
  connection: Connection,
  call: CallState,
  required: UrlElicitationRequiredError,
) {
  checkLimit(
    connection,
    call,
    'questionsPerRound',
    required.elicitations.length,
    'too many URLs in one URL-required error',
  );
  const group = `${call.id}:required:${call.questions}`;
  const together = { cancelled: false };
  const answers = await Promise.all(
    required.elicitations.map(async (elicitation) => {
      call.questions += 1;
      const slot = { call, round: call.questions, group, together };
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

function hostsOf(required: UrlElicitationRequiredError): string {
  const hosts = required.elicitations.map(({ url }) => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  });
  return [...new Set(hosts)].join(', ');
}
