import {
  checkField,
  checkRequestedSchema,
  displayValue,
  type FieldError,
  type FormContent,
  listFields,
  parseContent,
  type RequestedSchema,
} from '@parley/core/form';
import { type AskerContext, askerHeading, callLine } from './context-text.js';
import { timeZoneLabel } from './date-time.js';
import { el, idPrefix } from './dom.js';
import { hiddenValueText } from './field-text.js';
import { createFieldView, type FieldView } from './field-view.js';
import { isYesNo, renderYesNo } from './yes-no.js';

/** A form-mode `elicitation/create`: the server's message and the fields it asks for. */
export interface ElicitationRequest {
  readonly message: string;
  readonly requestedSchema: RequestedSchema;
}

/** The person's answer: accepted with checked content, declined, or cancelled (dismissed). */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content: FormContent }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** Where `renderElicitation` sends the person's answer, and who is asking. */
export interface RenderOptions {
  /** Called exactly once, with the person's answer. Every control is disabled afterwards. */
  onAnswer(answer: ElicitationAnswer): void;
  /** Who asks and during which call; shown in the title and the line under it. */
  readonly context?: AskerContext;
  /**
   * The form's heading, in place of which server asks (`Brightgrid asks`): for a host whose own
   * heading already names the server, as a question page's does. The line under it is left out
   * when it would say the same.
   */
  readonly title?: string;
  /**
   * Names of fields that take a secret (a password, an API key). They are typed into
   * `<input type="password" autocomplete="off" spellcheck="false">` with a Show / Hide button, and
   * the review step says `hidden (n characters)`, never the value. Names not in the form are ignored.
   */
  readonly secretFields?: readonly string[];
  /**
   * Whether Escape answers `cancel` (default `true`, as a dialog is dismissed). A full page sets
   * `false`, so a stray key does not end the question.
   */
  readonly escapeCancels?: boolean;
  /**
   * A form whose one field is a yes/no (a confirmation) is answered in one click: **Yes**, **No**
   * (both accept, with `true` or `false`) and **Dismiss** (`cancel`), with no review step. Default
   * `true`; `false` draws it as any other form (a checkbox, then review).
   */
  readonly yesNo?: boolean;
}

/** A rendered question. */
export interface RenderedElicitation {
  /** The id of the title element, for `aria-labelledby` on a surrounding dialog. */
  readonly labelId: string;
  /** The id of the server's message, for `aria-describedby` on a surrounding dialog. */
  readonly descriptionId: string;
  /** Moves focus to the first field (or the first button when there is none). */
  focus(): void;
  /**
   * Lets the person answer again after the host could not use the answer (the server refused it,
   * or it never arrived): every control works again. With `errors`, the fields come back with
   * those messages (a message for a field not in the form goes in the status line) and focus
   * moves to the first one named (or the first field); without, the form stays on the step it
   * was on and focus stays where it is.
   */
  reopen(errors?: readonly FieldError[]): void;
  /** Removes the form from the element. */
  destroy(): void;
}

type Reading = { content: FormContent; errors: FieldError[] };

function readAll(views: readonly FieldView[], schema: RequestedSchema): Reading {
  const content: FormContent = {};
  const errors: FieldError[] = [];
  for (const view of views) {
    const reading = view.read();
    if (!reading.ok) errors.push({ field: view.field.name, message: reading.message });
    else if (reading.value !== undefined) content[view.field.name] = reading.value;
  }
  if (errors.length > 0) return { content, errors };
  const parsed = parseContent(schema, content);
  return { content, errors: parsed.ok ? [] : parsed.errors };
}

function button(label: string, kind: string, type: 'submit' | 'button' = 'button'): HTMLButtonElement {
  return el('button', { type, class: `parley-button parley-${kind}` }, label);
}

/**
 * Renders a form-mode elicitation into `element` with plain DOM: a title saying which server asks
 * and during which call, the server's message as plain text, one labelled control per field with
 * its description and defaults, validation as the person types and on submit (the same rules as
 * `parseContent` in `@parley/core/form`), then a review step. Buttons: **Review answers**, then
 * **Accept** / **Edit answers**; **Decline** and **Cancel** throughout; Escape is Cancel (unless
 * `escapeCancels` is `false`). A yes/no (one boolean field) is answered in one click instead:
 * **Yes**, **No**, **Dismiss** (see `yesNo`).
 *
 * @example
 * import { renderElicitation } from '@parley/renderer';
 *
 * const form = renderElicitation(document.querySelector('#question')!, {
 *   message: 'Where should we ship it?',
 *   requestedSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] },
 * }, {
 *   context: { server: { name: 'Brightgrid', version: '1.0.0' }, call: { kind: 'tool', name: 'ship' } },
 *   onAnswer: (answer) => send(answer), // { action: 'accept', content: { city: 'Lyon' } }
 * });
 */
export function renderElicitation(
  element: HTMLElement,
  request: ElicitationRequest,
  options: RenderOptions,
): RenderedElicitation {
  const prefix = idPrefix();
  const schema = request.requestedSchema;
  const problems = checkRequestedSchema(schema);
  const fields = problems.length > 0 ? [] : listFields(schema);
  const timeZone = fields.some((field) => field.kind === 'date-time') ? timeZoneLabel() : '';
  const secrets = new Set(options.secretFields ?? []);
  if (options.yesNo !== false && problems.length === 0 && isYesNo(fields, [...secrets]))
    return renderYesNo(element, request, fields[0]!, options, prefix);
  const views = fields.map((field, index) =>
    createFieldView(field, `${prefix}f${index}`, { timeZone, secret: secrets.has(field.name) }),
  );
  const labelId = `${prefix}title`;
  const descriptionId = `${prefix}message`;
  const title = options.title ?? askerHeading(options.context);
  const line = callLine(options.context);

  const reviewHeading = el('h3', { tabindex: '-1' }, 'Check your answers');
  const reviewList = el('dl', { class: 'parley-review-list' });
  const status = el('p', { class: 'parley-status', role: 'status' });
  const fieldsStep = el(
    'div',
    { class: 'parley-fields' },
    problems.length > 0
      ? el(
          'div',
          { class: 'parley-problem', role: 'alert' },
          el('p', null, 'This question cannot be shown: its form is outside what MCP allows.'),
          el(
            'ul',
            null,
            ...problems.map((problem) => el('li', null, `${problem.path || '/'}: ${problem.message}`)),
          ),
        )
      : null,
    ...views.map((view) => view.element),
  );
  const reviewStep = el('div', { class: 'parley-review', hidden: true }, reviewHeading, reviewList);
  const review = button('Review answers', 'primary', 'submit');
  const accept = button('Accept', 'primary', 'submit');
  const edit = button('Edit answers', 'secondary');
  const decline = button('Decline', 'secondary');
  const cancel = button('Cancel', 'secondary');
  accept.hidden = true;
  edit.hidden = true;
  review.hidden = problems.length > 0;

  const form = el(
    'form',
    { class: 'parley-elicitation', novalidate: true, 'aria-labelledby': labelId },
    el('h2', { id: labelId, class: 'parley-title' }, title),
    line === '' || line === title ? null : el('p', { class: 'parley-call' }, line),
    el('p', { id: descriptionId, class: 'parley-message' }, request.message),
    fieldsStep,
    reviewStep,
    status,
    el('div', { class: 'parley-actions' }, review, accept, edit, decline, cancel),
  );

  let answered = false;
  let reviewed: FormContent | undefined;

  const setDisabled = (disabled: boolean) => {
    for (const control of form.querySelectorAll<HTMLInputElement>('input, select, button'))
      control.disabled = disabled;
  };

  const finish = (answer: ElicitationAnswer) => {
    if (answered) return;
    answered = true;
    for (const view of views) view.conceal();
    setDisabled(true);
    options.onAnswer(answer);
  };

  const showStep = (step: 'fields' | 'review') => {
    const reviewing = step === 'review';
    fieldsStep.hidden = reviewing;
    reviewStep.hidden = !reviewing;
    review.hidden = reviewing || problems.length > 0;
    accept.hidden = !reviewing;
    edit.hidden = !reviewing;
  };

  /** Shows each error under its field (or in the status line) and focuses the first bad field. */
  const showErrors = (errors: readonly FieldError[]) => {
    for (const view of views)
      view.showError(errors.find((error) => error.field === view.field.name)?.message);
    const general = errors.filter((error) => !views.some((view) => view.field.name === error.field));
    status.textContent =
      general.length > 0
        ? general.map((error) => error.message).join(' ')
        : `${errors.length === 1 ? 'One answer needs' : `${errors.length} answers need`} attention.`;
    views.find((view) => errors.some((error) => error.field === view.field.name))?.focus();
  };

  const toReview = () => {
    const { content, errors } = readAll(views, schema);
    if (errors.length > 0) return showErrors(errors);
    for (const view of views) view.showError(undefined);
    status.textContent = '';
    reviewed = content;
    reviewList.replaceChildren(
      ...views.flatMap((view) => [
        el('dt', null, view.field.title),
        el(
          'dd',
          null,
          view.secret
            ? hiddenValueText(view.field, content[view.field.name])
            : displayValue(view.field, content[view.field.name]),
        ),
      ]),
    );
    showStep('review');
    reviewHeading.focus();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (answered || problems.length > 0) return;
    if (reviewed === undefined) toReview();
    else finish({ action: 'accept', content: reviewed });
  });
  const onEdit = (event: Event) => {
    const view = views.find((candidate) => candidate.element.contains(event.target as Node));
    if (!view) return;
    const reading = view.read();
    if (!reading.ok) view.showError(reading.message);
    else view.showError(reading.value === undefined ? undefined : checkField(view.field, reading.value));
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || answered || options.escapeCancels === false) return;
    event.preventDefault();
    finish({ action: 'cancel' });
  });
  edit.addEventListener('click', () => {
    reviewed = undefined;
    showStep('fields');
    focusFirst();
  });
  decline.addEventListener('click', () => finish({ action: 'decline' }));
  cancel.addEventListener('click', () => finish({ action: 'cancel' }));

  const focusFirst = () => (views[0] ?? { focus: () => (review.hidden ? decline : review).focus() }).focus();

  element.append(form);
  return {
    labelId,
    descriptionId,
    focus: () => (reviewed === undefined ? focusFirst() : reviewHeading.focus()),
    reopen: (errors = []) => {
      answered = false;
      setDisabled(false);
      if (errors.length === 0) return;
      reviewed = undefined;
      showStep('fields');
      showErrors(errors);
      if (!views.some((view) => errors.some((error) => error.field === view.field.name))) focusFirst();
    },
    destroy: () => form.remove(),
  };
}
