import type { FormField } from '@parley/core/form';
import { type AskerContext, askerHeading, callLine } from './context-text.js';
import { el } from './dom.js';

/** A yes/no's answer: accepted with the field's value, or dismissed. */
type YesNoAnswer =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, boolean>> }
  | { readonly action: 'cancel' };

/** What `renderElicitation`'s options give a yes/no. */
interface YesNoOptions {
  onAnswer(answer: YesNoAnswer): void;
  readonly context?: AskerContext;
  readonly title?: string;
  readonly escapeCancels?: boolean;
}

/** What `renderElicitation` returns, for a yes/no. */
interface RenderedYesNo {
  readonly labelId: string;
  readonly descriptionId: string;
  focus(): void;
  reopen(): void;
  destroy(): void;
}

/** Whether a form is a yes/no: its one field is a boolean (a confirmation, `ctx.confirm`). */
export function isYesNo(fields: readonly FormField[], secretFields: readonly string[]): boolean {
  const [only] = fields;
  return fields.length === 1 && only!.kind === 'boolean' && !secretFields.includes(only!.name);
}

/**
 * A yes/no question answered in one click: **Yes** accepts `true`, **No** accepts `false`, and
 * **Dismiss** answers `cancel` (it leaves the question unanswered; never called "Cancel", which
 * a confirmation such as "Cancel this order?" would make mean the opposite). Escape dismisses too,
 * unless `escapeCancels` is `false`.
 */
export function renderYesNo(
  element: HTMLElement,
  request: { readonly message: string },
  field: FormField,
  options: YesNoOptions,
  prefix: string,
): RenderedYesNo {
  const labelId = `${prefix}title`;
  const descriptionId = `${prefix}message`;
  const questionId = `${prefix}question`;
  const title = options.title ?? askerHeading(options.context);
  const line = callLine(options.context);
  const yes = el('button', { type: 'button', class: 'parley-button parley-primary' }, 'Yes');
  const no = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'No');
  const dismiss = el('button', { type: 'button', class: 'parley-button parley-secondary' }, 'Dismiss');
  const buttons = [yes, no, dismiss];
  const root = el(
    'div',
    { class: 'parley-elicitation parley-yes-no', role: 'group', 'aria-labelledby': labelId },
    el('h2', { id: labelId, class: 'parley-title' }, title),
    line === '' || line === title ? null : el('p', { class: 'parley-call' }, line),
    el('p', { id: descriptionId, class: 'parley-message' }, request.message),
    el('p', { id: questionId, class: 'parley-yes-no-question' }, field.title),
    field.description ? el('p', { class: 'parley-description' }, field.description) : null,
    el('div', { class: 'parley-actions', role: 'group', 'aria-labelledby': questionId }, ...buttons),
  );

  let answered = false;
  const finish = (answer: YesNoAnswer) => {
    if (answered) return;
    answered = true;
    for (const button of buttons) button.disabled = true;
    options.onAnswer(answer);
  };
  yes.addEventListener('click', () => finish({ action: 'accept', content: { [field.name]: true } }));
  no.addEventListener('click', () => finish({ action: 'accept', content: { [field.name]: false } }));
  dismiss.addEventListener('click', () => finish({ action: 'cancel' }));
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || answered || options.escapeCancels === false) return;
    event.preventDefault();
    finish({ action: 'cancel' });
  });

  element.append(root);
  return {
    labelId,
    descriptionId,
    focus: () => yes.focus(),
    reopen: () => {
      answered = false;
      for (const button of buttons) button.disabled = false;
    },
    destroy: () => root.remove(),
  };
}
