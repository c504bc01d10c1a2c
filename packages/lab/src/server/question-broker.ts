import type { QuestionAnswer, QuestionView } from '../protocol.js';
import { readAnswer } from './answer-body.js';
import type { LabState } from './lab-state.js';
import type { Refusal } from './request-guard.js';

type NewQuestion = QuestionView extends infer Q ? (Q extends QuestionView ? Omit<Q, 'id'> : never) : never;

/**
 * Puts questions in front of the page and waits for the person's answer. A question leaves the
 * page when it is answered or when its signal aborts (the call ended or the client gave up), and
 * it can be answered only once.
 */
export class QuestionBroker {
  readonly #state: LabState;
  readonly #waiting = new Map<string, (answer: QuestionAnswer) => void>();
  #next = 1;

  constructor(state: LabState) {
    this.#state = state;
  }

  /** Shows a question and resolves with the answer, or with `cancel` when `signal` aborts first. */
  ask(question: NewQuestion, signal: AbortSignal): Promise<QuestionAnswer> {
    if (signal.aborted) return Promise.resolve({ action: 'cancel' });
    const id = `q${this.#next++}`;
    return new Promise((resolve) => {
      const onAbort = () => settle({ action: 'cancel' });
      const settle = (answer: QuestionAnswer) => {
        if (!this.#waiting.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.#state.removeQuestion(id);
        resolve(answer);
      };
      this.#waiting.set(id, settle);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#state.putQuestion({ ...question, id } as QuestionView);
    });
  }

  /** Delivers the page's answer; returns a refusal when the question is gone or the answer is malformed. */
  answer(id: string, body: unknown): Refusal | undefined {
    const question = this.#state.question(id);
    const settle = this.#waiting.get(id);
    if (!question || !settle) {
      return {
        status: 404,
        message: 'This question is no longer waiting: it was answered, or its call ended.',
      };
    }
    const answer = readAnswer(question.mode, body);
    if (typeof answer === 'string') return { status: 400, message: answer };
    settle(answer);
    return undefined;
  }

  /** Answers every open question `cancel` (the lab is closing). */
  cancelAll(): void {
    for (const settle of [...this.#waiting.values()]) settle({ action: 'cancel' });
  }
}
