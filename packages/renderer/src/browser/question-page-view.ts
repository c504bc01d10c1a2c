import type { FieldError } from '@parley/core/form';
import { callLine } from '../context-text.js';
import { el } from '../dom.js';
import {
  NETWORK_FAILURE,
  type QuestionPageAnswer,
  type ReplyOutcome,
  readReply,
} from '../question-page/answer.js';
import type { QuestionPageData } from '../question-page/page-data.js';
import {
  type ElicitationAnswer,
  type RenderedElicitation,
  renderElicitation,
} from '../render-elicitation.js';
import { expiryText } from './expiry-text.js';
import type { PostResult } from './post-answer.js';

const DONE_TITLES = { accept: 'Answer sent', decline: 'Declined', cancel: 'Cancelled' } as const;

function answerBody(csrf: string, answer: ElicitationAnswer): QuestionPageAnswer {
  return answer.action === 'accept'
    ? { csrf, action: 'accept', content: answer.content }
    : { csrf, action: answer.action };
}

/** What to tell the person when the server's reply had no message of its own. */
function afterText(data: QuestionPageData): string {
  const name = data.server.title || data.server.name;
  return data.after === 'url'
    ? `Your answer reached ${name}. Go back to your app; if it asks, choose “I've finished”.`
    : `Your answer reached ${name}. Go back to your app and make the same request again.`;
}

/**
 * Shows the question of a page below its heading and sends the person's answer: the form (the
 * renderer, with who asks, the call, the secret fields; Escape does not cancel on a page), the
 * time the link works until, a status line while sending, and an alert for the server's refusals.
 * `post` sends the answer (`postAnswer` in the page; tests pass their own).
 */
export function mountQuestionPage(
  main: HTMLElement,
  data: QuestionPageData,
  post: (url: string, answer: QuestionPageAnswer) => Promise<PostResult>,
): RenderedElicitation {
  const expiry = el('p', { class: 'parley-page-expiry' }, expiryText(data.expiresAt, Date.now()));
  const question = el('div', { class: 'parley-page-question' });
  const sending = el('p', { class: 'parley-page-sending', role: 'status' });
  const alert = el('div', { class: 'parley-page-alert', role: 'alert', tabindex: '-1' });
  main.append(expiry, question, sending, alert);

  const showDone = (action: ElicitationAnswer['action'], message: string) => {
    const heading = el('h2', { class: 'parley-page-done-title', tabindex: '-1' }, DONE_TITLES[action]);
    rendered.destroy();
    expiry.remove();
    question.replaceChildren(
      el('section', { class: 'parley-page-done' }, heading, el('p', null, message || afterText(data))),
    );
    heading.focus();
  };

  const handle = (action: ElicitationAnswer['action'], outcome: ReplyOutcome) => {
    if (outcome.kind === 'done') return showDone(action, outcome.message);
    alert.textContent = outcome.message;
    if (outcome.kind === 'closed') {
      expiry.remove();
      alert.focus();
      return;
    }
    const errors: readonly FieldError[] = outcome.kind === 'fix' ? outcome.errors : [];
    rendered.reopen(errors);
    if (errors.length === 0) rendered.focus();
  };

  const send = async (answer: ElicitationAnswer) => {
    alert.textContent = '';
    sending.textContent = 'Sending your answer…';
    const result = await post(data.answerUrl, answerBody(data.csrf, answer));
    sending.textContent = '';
    handle(
      answer.action,
      result.status === 'no reply'
        ? { kind: 'retry', message: NETWORK_FAILURE }
        : readReply(result.status, result.body),
    );
  };

  const rendered = renderElicitation(
    question,
    { message: data.message, requestedSchema: data.requestedSchema },
    {
      context: { server: data.server, call: data.call },
      // The page's own heading already says which server asks.
      title: callLine({ call: data.call }) || 'The question',
      secretFields: data.secretFields,
      escapeCancels: false,
      onAnswer: (answer) => void send(answer),
    },
  );
  return rendered;
}

/** Says, in place of the question, that the page could not read its own data. */
export function showPageProblem(main: HTMLElement, problem: string): void {
  main.append(
    el(
      'div',
      { class: 'parley-page-alert', role: 'alert' },
      el('p', null, 'This page cannot show its question. Go back to your app and ask again.'),
      el('p', { class: 'parley-page-detail' }, `(The page's data is not usable: ${problem}.)`),
    ),
  );
}

/** Parses the JSON island's text; `undefined` when it is not JSON. */
export function parseIsland(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
