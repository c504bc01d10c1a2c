import type { CallView, LabEvent, QuestionView, ServerView } from '../protocol.js';

/** The page's copy of the lab's state, kept in step by the event stream. Held in memory only. */
export class LabStore {
  readonly servers = new Map<string, ServerView>();
  readonly calls = new Map<string, CallView>();
  readonly questions = new Map<string, QuestionView>();
  readonly #listeners = new Set<(event: LabEvent) => void>();

  on(listener: (event: LabEvent) => void): void {
    this.#listeners.add(listener);
  }

  apply(event: LabEvent): void {
    switch (event.type) {
      case 'snapshot':
        this.servers.clear();
        this.calls.clear();
        this.questions.clear();
        for (const server of event.servers) this.servers.set(server.id, server);
        for (const call of event.calls) this.calls.set(call.id, call);
        for (const question of event.questions) this.questions.set(question.id, question);
        break;
      case 'server':
        this.servers.set(event.server.id, event.server);
        break;
      case 'server-removed':
        this.servers.delete(event.serverId);
        break;
      case 'call':
        this.calls.set(event.call.id, event.call);
        break;
      case 'question':
        this.questions.set(event.question.id, event.question);
        break;
      case 'question-closed':
        this.questions.delete(event.questionId);
        break;
    }
    for (const listener of this.#listeners) listener(event);
  }
}
