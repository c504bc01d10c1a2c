import type { FieldError, FormContent } from '@parley/core/form';

/** What the page POSTs to `answerUrl`, as JSON. `content` comes only with `accept`. */
export interface QuestionPageAnswer {
  readonly csrf: string;
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: FormContent;
}

/**
 * What the server answers the POST with, as JSON: `ok`, a message for the person, and with a 422
 * the problems of the answer by field.
 */
export interface QuestionPageReply {
  readonly ok: boolean;
  readonly message: string;
  readonly errors?: readonly FieldError[];
}

/**
 * What the page does with the server's reply:
 * - `done`: the answer arrived; the form gives way to the message;
 * - `fix`: the server refused some values (422); the fields come back with its messages;
 * - `closed`: the link no longer takes answers (403, 404, 410); the form stays disabled;
 * - `retry`: nothing was recorded (a bad request, a network failure, a server error); the person
 *   can send again.
 */
export type ReplyOutcome =
  | { readonly kind: 'done'; readonly message: string }
  | { readonly kind: 'fix'; readonly message: string; readonly errors: readonly FieldError[] }
  | { readonly kind: 'closed'; readonly message: string }
  | { readonly kind: 'retry'; readonly message: string };

/** Shown when the POST never got a reply. */
export const NETWORK_FAILURE = 'Could not send your answer. Check your connection and try again.';

/** Longest server message the page shows; the rest is cut with an ellipsis. */
export const MESSAGE_LIMIT = 2000;
const ERROR_LIMIT = 50;

const CLOSED: Record<number, string> = {
  403: 'This question cannot be answered from this browser.',
  404: 'This question was not found. It may have been answered already.',
  410: 'This link has expired or was already used.',
};

function cap(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function textOf(body: unknown, key: string): string {
  const value = typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
  return typeof value === 'string' ? cap(value.trim(), MESSAGE_LIMIT) : '';
}

function errorsOf(body: unknown): FieldError[] {
  const list = typeof body === 'object' && body !== null ? Reflect.get(body, 'errors') : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .filter(
      (item): item is FieldError =>
        typeof item === 'object' &&
        item !== null &&
        typeof item.field === 'string' &&
        typeof item.message === 'string',
    )
    .slice(0, ERROR_LIMIT)
    .map((item) => ({ field: item.field, message: cap(item.message, 300) }));
}

/**
 * Sorts the server's reply to an answer by what the page should do with it. `body` is the parsed
 * JSON (anything: it is checked here), `undefined` when the reply was not JSON. Server text is
 * capped; a missing message gets a plain one for the status.
 */
export function readReply(status: number, body: unknown): ReplyOutcome {
  const message = textOf(body, 'message');
  const ok = typeof body === 'object' && body !== null && Reflect.get(body, 'ok') === true;
  if (status >= 200 && status < 300 && ok) return { kind: 'done', message };
  if (status === 422) {
    const errors = errorsOf(body);
    return { kind: 'fix', message: message || 'Some answers need attention.', errors };
  }
  const closed = CLOSED[status];
  if (closed !== undefined) return { kind: 'closed', message: message || closed };
  return {
    kind: 'retry',
    message: message || `The server could not take your answer (HTTP ${status}). Try again.`,
  };
}
