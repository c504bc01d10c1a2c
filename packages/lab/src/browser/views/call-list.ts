import type { LabEvent, UrlWaitQuestion } from '../../protocol.js';
import type { LabStore } from '../lab-store.js';
import { type CallActions, CallCard } from './call-card.js';

/** The calls, newest first, each a {@link CallCard} kept up to date from the store. */
export class CallList {
  readonly #list: HTMLOListElement;
  readonly #store: LabStore;
  readonly #actions: CallActions;
  readonly #cards = new Map<string, CallCard>();

  constructor(list: HTMLOListElement, store: LabStore, actions: CallActions) {
    this.#list = list;
    this.#store = store;
    this.#actions = actions;
    store.on((event) => this.#apply(event));
  }

  #apply(event: LabEvent): void {
    if (event.type === 'snapshot') {
      this.#cards.clear();
      this.#list.replaceChildren();
      for (const call of this.#store.calls.values()) this.#put(call.id);
    } else if (event.type === 'call') {
      this.#put(event.call.id);
    }
    if (event.type === 'snapshot' || event.type === 'question' || event.type === 'question-closed') {
      this.#showUrlWaits();
    }
  }

  #put(id: string): void {
    const call = this.#store.calls.get(id);
    if (!call) return;
    const card = this.#cards.get(id);
    if (card) {
      card.update(call);
      return;
    }
    const created = new CallCard(call, this.#store.servers.get(call.serverId), this.#actions);
    this.#cards.set(id, created);
    this.#list.prepend(created.element);
  }

  #showUrlWaits(): void {
    const waits = [...this.#store.questions.values()].filter(
      (question): question is UrlWaitQuestion => question.mode === 'url-wait',
    );
    const callOf = (question: UrlWaitQuestion) =>
      question.callId ??
      [...this.#store.calls.values()]
        .reverse()
        .find((call) => call.serverId === question.serverId && call.status === 'running')?.id;
    for (const [id, card] of this.#cards) card.showUrlWait(waits.find((question) => callOf(question) === id));
  }
}
