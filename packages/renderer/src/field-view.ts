import { type FormField, type FormValue, fieldFromText } from '@parley/core/form';
import { dateTimeToLocalInput, localInputToDateTime, timeZoneLabel } from './date-time.js';
import { el } from './dom.js';
import { fieldHint } from './field-text.js';

/** What a person entered in one field: the wire value (`undefined` = no answer), or why it cannot be read. */
export type FieldReading = { ok: true; value: FormValue | undefined } | { ok: false; message: string };

/** One rendered field: its element, how to read it, and where its message goes. */
export interface FieldView {
  readonly field: FormField;
  readonly element: HTMLElement;
  read(): FieldReading;
  /** Shows a message under the field and marks it invalid; `undefined` clears it. */
  showError(message: string | undefined): void;
  focus(): void;
}

const INPUT_TYPES: Partial<Record<FormField['kind'], string>> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

const INCOMPLETE: Partial<Record<FormField['kind'], string>> = {
  date: 'Enter a complete date',
  'date-time': 'Enter a complete date and time',
};

function labelText(field: FormField): (string | HTMLElement)[] {
  return field.required || field.kind === 'boolean'
    ? [field.title]
    : [field.title, ' ', el('span', { class: 'parley-optional' }, '(optional)')];
}

/** The description, hint and message lines of a field, and the ids that describe its control. */
function notes(field: FormField, id: string, timeZone: string) {
  const hint = fieldHint(field, timeZone);
  const error = el('p', { id: `${id}-error`, class: 'parley-error', 'aria-live': 'polite' });
  const lines = [
    field.description !== undefined && field.description !== ''
      ? el('p', { id: `${id}-description`, class: 'parley-description' }, field.description)
      : null,
    hint === '' ? null : el('p', { id: `${id}-hint`, class: 'parley-hint' }, hint),
  ].filter((line): line is HTMLParagraphElement => line !== null);
  const describedBy = [...lines, error].map((line) => line.id).join(' ');
  return { lines, error, describedBy };
}

function initialText(field: FormField): string {
  const fallback = field.default;
  if (fallback === undefined || typeof fallback === 'boolean' || Array.isArray(fallback)) return '';
  return field.kind === 'date-time' ? dateTimeToLocalInput(String(fallback)) : String(fallback);
}

function textControl(field: FormField, id: string, describedBy: string) {
  const whole = field.kind === 'integer';
  const numeric = whole || field.kind === 'number';
  const input = el('input', {
    id,
    type: INPUT_TYPES[field.kind] ?? 'text',
    inputmode: numeric ? (whole ? 'numeric' : 'decimal') : undefined,
    autocomplete: 'off',
    spellcheck: field.kind === 'text' ? undefined : 'false',
    'aria-describedby': describedBy,
    'aria-required': field.required ? 'true' : undefined,
  });
  input.value = initialText(field);
  const read = (): FieldReading => {
    if (input.validity.badInput) return { ok: false, message: INCOMPLETE[field.kind] ?? 'Enter a value' };
    if (field.kind !== 'date-time') return fieldFromText(field, input.value);
    if (input.value === '') return { ok: true, value: undefined };
    const value = localInputToDateTime(input.value);
    return value === undefined ? { ok: false, message: INCOMPLETE['date-time']! } : { ok: true, value };
  };
  return { control: input, read };
}

function choiceControl(field: FormField, id: string, describedBy: string) {
  const select = el('select', {
    id,
    'aria-describedby': describedBy,
    'aria-required': field.required ? 'true' : undefined,
  });
  if (!(field.required && field.default !== undefined)) {
    select.append(el('option', { value: '' }, field.required ? 'Choose…' : 'No answer'));
  }
  for (const option of field.options ?? [])
    select.append(el('option', { value: option.value }, option.label));
  select.value = typeof field.default === 'string' ? field.default : '';
  const read = (): FieldReading => ({ ok: true, value: select.value === '' ? undefined : select.value });
  return { control: select, read };
}

function checkboxView(field: FormField, id: string): FieldView {
  const { lines, error, describedBy } = notes(field, id, '');
  const box = el('input', { id, type: 'checkbox', 'aria-describedby': describedBy });
  box.checked = field.default === true;
  const element = el(
    'div',
    { class: 'parley-field parley-check', 'data-kind': field.kind },
    box,
    el('label', { for: id }, ...labelText(field)),
    ...lines,
    error,
  );
  return finish(field, element, box, error, () => ({ ok: true, value: box.checked }));
}

function manyView(field: FormField, id: string): FieldView {
  const { lines, error, describedBy } = notes(field, id, '');
  const chosen = new Set(Array.isArray(field.default) ? field.default : []);
  const boxes = (field.options ?? []).map((option, index) => {
    const box = el('input', { id: `${id}-${index}`, type: 'checkbox', value: option.value });
    box.checked = chosen.has(option.value);
    return box;
  });
  const element = el(
    'fieldset',
    { class: 'parley-field parley-many', 'data-kind': field.kind, 'aria-describedby': describedBy },
    el('legend', null, ...labelText(field)),
    ...lines,
    el(
      'div',
      { class: 'parley-options' },
      ...boxes.map((box, index) =>
        el('div', null, box, el('label', { for: box.id }, field.options![index]!.label)),
      ),
    ),
    error,
  );
  const read = (): FieldReading => ({
    ok: true,
    value: boxes.filter((box) => box.checked).map((box) => box.value),
  });
  return finish(field, element, boxes[0] ?? element, error, read, boxes);
}

function finish(
  field: FormField,
  element: HTMLElement,
  focusTarget: HTMLElement,
  error: HTMLElement,
  read: () => FieldReading,
  invalidTargets: HTMLElement[] = [focusTarget],
): FieldView {
  element.dataset.field = field.name;
  return {
    field,
    element,
    read,
    showError(message) {
      error.textContent = message ?? '';
      element.classList.toggle('parley-invalid', message !== undefined);
      for (const target of invalidTargets) {
        if (message === undefined) target.removeAttribute('aria-invalid');
        else target.setAttribute('aria-invalid', 'true');
      }
    },
    focus: () => focusTarget.focus(),
  };
}

/**
 * Renders one field of a form as labelled native controls: a text-like input (typed for email, URL,
 * date and date-time, with a numeric keyboard for numbers), a checkbox for a boolean, a select for
 * a single choice, a group of checkboxes for a multi-select. Defaults are pre-filled. `id` must be
 * unique on the page. `timeZone` names the person's zone for a date-time field (read it once per
 * form with `timeZoneLabel()`: reading it costs a tenth of a millisecond).
 */
export function createFieldView(field: FormField, id: string, timeZone = ''): FieldView {
  if (field.kind === 'boolean') return checkboxView(field, id);
  if (field.kind === 'many') return manyView(field, id);
  const { lines, error, describedBy } = notes(
    field,
    id,
    field.kind === 'date-time' ? timeZone || timeZoneLabel() : '',
  );
  const { control, read } =
    field.kind === 'choice' ? choiceControl(field, id, describedBy) : textControl(field, id, describedBy);
  const element = el(
    'div',
    { class: 'parley-field', 'data-kind': field.kind },
    el('label', { for: id }, ...labelText(field)),
    ...lines,
    control,
    error,
  );
  return finish(field, element, control, error, read);
}
