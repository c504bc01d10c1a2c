import { renderElicitation } from '@parley/renderer';
import { el } from '@parley/renderer/parts';
import type { QuestionAnswer, QuestionView } from '../../protocol.js';
import type { LabStore } from '../lab-store.js';
import { renderHostPreview } from './host-preview.js';
import { renderSamplingRequest } from './sampling-request.js';
import { SAME_NAME_WARNING, serverPlace, sharesName } from './server-place.js';
import { renderUrlConsent } from './url-consent.js';

type Shown = { readonly id: string; destroy(): void };

/**
 * The modal dialog where questions reach the person, one at a time in the order they arrived:
 * a form (through the reusable renderer), a URL consent or a sampling request. Escape is Cancel
 * (Decline for a sampling request). When the last question
 * is answered the dialog closes and focus goes back where it was.
 */
export class QuestionDialog {
  readonly #dialog: HTMLDialogElement;
  readonly #store: LabStore;
  readonly #send: (id: string, answer: QuestionAnswer) => Promise<void>;
  readonly #announce: (text: string) => void;
  readonly #origin = el('p', { class: 'question-origin' });
  readonly #body = el('div', { class: 'dialog-body' });
  /** Beside a form: the same question as another host would meet it. */
  readonly #preview = el('div', { class: 'dialog-preview' });
  readonly #queueNote = el('p', { class: 'queue-note' });
  readonly #error = el('p', { class: 'parley-error', role: 'alert' });
  readonly #answered = new Set<string>();
  #shown: Shown | undefined;
  #returnFocus: Element | null = null;

  constructor(
    dialog: HTMLDialogElement,
    store: LabStore,
    send: (id: string, answer: QuestionAnswer) => Promise<void>,
    announce: (text: string) => void,
  ) {
    this.#dialog = dialog;
    this.#store = store;
    this.#send = send;
    this.#announce = announce;
    dialog.replaceChildren(
      this.#origin,
      el('div', { class: 'dialog-columns' }, this.#body, this.#preview),
      this.#error,
      this.#queueNote,
    );
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      // A sampling request has no "cancel": dismissing it declines.
      const shown = this.#shown;
      if (!shown) return;
      const sampling = this.#store.questions.get(shown.id)?.mode === 'sampling';
      this.#answer(shown.id, { action: sampling ? 'decline' : 'cancel' });
    });
    store.on((event) => {
      if (event.type === 'snapshot' || event.type === 'question' || event.type === 'question-closed')
        this.#update();
    });
  }

  #waiting(): QuestionView[] {
    return [...this.#store.questions.values()].filter((question) => question.mode !== 'url-wait');
  }

  #update(): void {
    const waiting = this.#waiting();
    if (this.#shown && !this.#store.questions.has(this.#shown.id)) {
      if (!this.#answered.has(this.#shown.id)) this.#announce('A question was withdrawn: its call ended.');
      this.#shown.destroy();
      this.#shown = undefined;
    }
    if (!this.#shown && waiting[0]) this.#show(waiting[0]);
    if (!this.#shown && this.#dialog.open) {
      this.#dialog.close();
      if (this.#returnFocus instanceof HTMLElement && this.#returnFocus.isConnected)
        this.#returnFocus.focus();
    }
    const more = Math.max(0, waiting.length - (this.#shown ? 1 : 0));
    this.#queueNote.textContent =
      more === 0 ? '' : `${more} more question${more === 1 ? '' : 's'} waiting after this one.`;
  }

  #show(question: QuestionView): void {
    this.#error.textContent = '';
    this.#showOrigin(question.serverId);
    const rendered =
      question.mode === 'form'
        ? renderElicitation(this.#body, question.request, {
            context: question.context,
            onAnswer: (answer) => this.#answer(question.id, answer),
          })
        : question.mode === 'sampling'
          ? renderSamplingRequest(this.#body, question.request, {
              context: question.context,
              onAnswer: (answer) => this.#answer(question.id, answer),
            })
          : renderUrlConsent(this.#body, question.request, {
              context: question.context,
              onAnswer: (action) => this.#answer(question.id, { action }),
              ...(question.notFinished === true && { notFinished: true }),
            });
    const preview =
      question.mode === 'form' ? renderHostPreview(question.request, question.context) : undefined;
    this.#preview.replaceChildren(...(preview ? [preview.element] : []));
    this.#shown = {
      id: question.id,
      destroy: () => {
        rendered.destroy();
        preview?.destroy();
        this.#preview.replaceChildren();
      },
    };
    this.#dialog.dataset.mode = question.mode;
    this.#dialog.setAttribute('aria-labelledby', rendered.labelId);
    this.#dialog.setAttribute('aria-describedby', rendered.descriptionId);
    if (!this.#dialog.open) {
      this.#returnFocus = document.activeElement;
      this.#dialog.showModal();
    }
    rendered.focus();
  }

  /** Where the asking server is, which its name cannot fake, and a warning when another has that name. */
  #showOrigin(serverId: string): void {
    const server = this.#store.servers.get(serverId);
    if (!server) return void this.#origin.replaceChildren();
    const same = sharesName(server, this.#store.servers.values());
    this.#origin.replaceChildren(
      'From ',
      el('code', null, serverPlace(server.target)),
      ...(same ? [' ', el('strong', { class: 'same-name' }, SAME_NAME_WARNING)] : []),
    );
  }

  #answer(id: string, answer: QuestionAnswer): void {
    if (this.#answered.has(id)) return;
    this.#answered.add(id);
    this.#send(id, answer).catch((error: unknown) => {
      this.#error.textContent = `The answer could not be sent: ${error instanceof Error ? error.message : String(error)}`;
    });
  }
}
