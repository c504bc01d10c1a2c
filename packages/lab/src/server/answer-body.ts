import { isRecord } from '@parley/core';
import type { FormContent, FormValue } from '@parley/core/form';
import type { QuestionAnswer, QuestionView } from '../protocol.js';

const ACTIONS: Record<QuestionView['mode'], readonly string[]> = {
  form: ['accept', 'decline', 'cancel'],
  url: ['accept', 'decline', 'cancel'],
  'url-wait': ['finished', 'cancel'],
  sampling: ['approve', 'decline', 'cancel'],
};

/** The longest reply a person may type for a sampling request, in characters. */
export const MAX_SAMPLING_REPLY = 100_000;

function isFormValue(value: unknown): value is FormValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

/**
 * Reads the answer a page posted for a question of the given mode: the action must be one the mode
 * allows, and accepted form content must be a flat object of wire values (the client checks it
 * against the schema before sending). Returns the answer, or a message saying what is wrong.
 */
export function readAnswer(mode: QuestionView['mode'], body: unknown): QuestionAnswer | string {
  const allowed = ACTIONS[mode];
  const action = isRecord(body) ? body.action : undefined;
  if (typeof action !== 'string' || !allowed.includes(action)) {
    return `The answer needs "action": one of ${allowed.join(', ')}.`;
  }
  if (action === 'approve') return readReply((body as Record<string, unknown>).reply);
  if (action !== 'accept' || mode !== 'form') return { action } as QuestionAnswer;
  const content = (body as Record<string, unknown>).content ?? {};
  if (!isRecord(content)) return 'Accepted content must be an object of field values.';
  const checked: FormContent = {};
  for (const [name, value] of Object.entries(content)) {
    if (!isFormValue(value)) {
      return `The value of "${name}" must be text, a number, true or false, or a list of texts.`;
    }
    Object.defineProperty(checked, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { action: 'accept', content: checked };
}

function readReply(reply: unknown): QuestionAnswer | string {
  if (typeof reply !== 'string' || reply.trim() === '') {
    return 'An approved sampling request needs "reply": the text to send as the model\'s message.';
  }
  if (reply.length > MAX_SAMPLING_REPLY) return `The reply is longer than ${MAX_SAMPLING_REPLY} characters.`;
  return { action: 'approve', reply };
}
