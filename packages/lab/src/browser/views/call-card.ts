import { el } from '@parley/renderer/parts';
import type { CallView, ServerView, UrlWaitQuestion } from '../../protocol.js';
import { resultView } from './result-view.js';
import { TimelineView } from './timeline-view.js';

const KIND_WORDS = { tool: 'Tool', prompt: 'Prompt', resource: 'Resource' } as const;

export interface CallActions {
  cancel(callId: string): void;
  answer(questionId: string, answer: { action: 'finished' | 'cancel' }): void;
}

/**
 * One call on the page: what was called, its status, the "I've finished" step of a URL flow, the
 * result, and the timeline of its rounds. Parts update in place so focus is never lost.
 */
export class CallCard {
  readonly element: HTMLLIElement;
  readonly #status = el('p', { class: 'call-status' });
  readonly #stop = el('button', { type: 'button', class: 'secondary' }, 'Stop call');
  readonly #waiting = el('div', { class: 'url-wait' });
  readonly #outcome = el('div', { class: 'outcome' });
  readonly #timeline = new TimelineView();
  readonly #actions: CallActions;
  #waitingFor: string | undefined;
  #finished = false;

  constructor(call: CallView, server: ServerView | undefined, actions: CallActions) {
    const titleId = `call-${call.id}-title`;
    const who = server?.info ? `${server.info.title || server.info.name}` : (server?.target ?? 'server');
    this.#stop.addEventListener('click', () => actions.cancel(call.id));
    this.#actions = actions;
    this.element = el(
      'li',
      { class: 'call', 'data-call-id': call.id },
      el(
        'article',
        { 'aria-labelledby': titleId },
        el(
          'h3',
          { id: titleId },
          `${KIND_WORDS[call.kind]} ${call.name}`,
          el('span', { class: 'call-server' }, ` on ${who}`),
        ),
        call.arguments && Object.keys(call.arguments).length > 0
          ? el(
              'p',
              { class: 'call-args' },
              el('span', { class: 'label' }, 'Arguments '),
              el('code', null, JSON.stringify(call.arguments)),
            )
          : null,
        el('div', { class: 'call-bar' }, this.#status, this.#stop),
        this.#waiting,
        this.#outcome,
        el('h4', null, 'Rounds'),
        this.#timeline.element,
      ),
    );
    this.update(call);
  }

  update(call: CallView): void {
    this.#timeline.update(call);
    this.element.dataset.status = call.status;
    if (call.status === 'running') {
      this.#status.textContent = 'Running…';
      return;
    }
    this.#stop.hidden = true;
    this.#status.textContent =
      call.status === 'done' ? `Finished in ${call.ms ?? 0} ms` : `Failed after ${call.ms ?? 0} ms`;
    if (this.#finished) return;
    this.#finished = true;
    this.#outcome.replaceChildren(
      call.status === 'done'
        ? resultView(call.kind, call.result)
        : el('p', { class: 'call-error', role: 'alert' }, call.error ?? 'The call failed.'),
    );
  }

  /** Shows (or clears) the step after a URL was opened: the server checks while the person finishes. */
  showUrlWait(question: UrlWaitQuestion | undefined): void {
    if (question?.id === this.#waitingFor) return;
    this.#waitingFor = question?.id;
    if (!question) {
      this.#waiting.replaceChildren();
      return;
    }
    const finished = el('button', { type: 'button', class: 'primary' }, "I've finished");
    const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
    finished.addEventListener('click', () => this.#actions.answer(question.id, { action: 'finished' }));
    cancel.addEventListener('click', () => this.#actions.answer(question.id, { action: 'cancel' }));
    this.#waiting.replaceChildren(
      el(
        'div',
        { class: 'url-wait-box', role: 'group', 'aria-label': 'Web page flow' },
        el('p', null, 'Finish in the page that opened in your browser, then say so here.'),
        el('p', { class: 'message' }, question.request.message),
        el('div', { class: 'actions' }, finished, cancel),
      ),
    );
    finished.focus();
  }
}
