import type { CallView, LabEvent, QuestionView, ServerView, TimelineEntry } from '../protocol.js';

/** How many finished calls the lab remembers; older ones are dropped first. */
export const KEPT_CALLS = 200;

/**
 * Everything the page shows: servers, calls with their timelines, open questions. Every change is
 * announced as a {@link LabEvent} so connected pages stay in step.
 */
export class LabState {
  readonly #servers = new Map<string, ServerView>();
  readonly #calls = new Map<string, CallView>();
  readonly #questions = new Map<string, QuestionView>();
  readonly #listeners = new Set<(event: LabEvent) => void>();

  /** Calls `listener` with every change; returns the function that stops it. */
  subscribe(listener: (event: LabEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  snapshot(): Extract<LabEvent, { type: 'snapshot' }> {
    return {
      type: 'snapshot',
      servers: [...this.#servers.values()],
      calls: [...this.#calls.values()],
      questions: [...this.#questions.values()],
    };
  }

  server(id: string): ServerView | undefined {
    return this.#servers.get(id);
  }

  call(id: string): CallView | undefined {
    return this.#calls.get(id);
  }

  question(id: string): QuestionView | undefined {
    return this.#questions.get(id);
  }

  putServer(server: ServerView): void {
    this.#servers.set(server.id, server);
    this.#emit({ type: 'server', server });
  }

  updateServer(id: string, change: Partial<ServerView>): void {
    const server = this.#servers.get(id);
    if (server) this.putServer({ ...server, ...change, id });
  }

  removeServer(id: string): void {
    if (this.#servers.delete(id)) this.#emit({ type: 'server-removed', serverId: id });
  }

  putCall(call: CallView): void {
    this.#calls.delete(call.id);
    this.#calls.set(call.id, call);
    this.#dropOldCalls();
    this.#emit({ type: 'call', call });
  }

  updateCall(id: string, change: Partial<CallView>): void {
    const call = this.#calls.get(id);
    if (call) this.putCall({ ...call, ...change, id });
  }

  addTimeline(id: string, entry: TimelineEntry): void {
    const call = this.#calls.get(id);
    if (call) this.putCall({ ...call, timeline: [...call.timeline, entry] });
  }

  putQuestion(question: QuestionView): void {
    this.#questions.set(question.id, question);
    this.#emit({ type: 'question', question });
  }

  removeQuestion(id: string): void {
    if (this.#questions.delete(id)) this.#emit({ type: 'question-closed', questionId: id });
  }

  #dropOldCalls(): void {
    for (const [id, call] of this.#calls) {
      if (this.#calls.size <= KEPT_CALLS) break;
      if (call.status !== 'running') this.#calls.delete(id);
    }
  }

  #emit(event: LabEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
