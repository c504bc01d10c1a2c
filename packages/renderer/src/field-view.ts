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
  /** Whether the field takes a secret: masked while typed, never shown back. */
  readonly secret: boolean;
  /** Shows a message under the field and marks it invalid; `undefined` clears it. */
  showError(message: string | undefined): void;
  focus(): void;
  /** Masks a secret field again if the person chose Show; nothing for other fields. */
  conceal(): void;
}

/** How {@link createFieldView} draws a field. */
export interface FieldViewOptions {
  /**
   * The person's time zone for a date-time field (read it once per form with `timeZoneLabel()`:
   * reading it costs a tenth of a millisecond). Read here when left out.
   */
  readonly timeZone?: string;
  /**
   * The field takes a secret (a password, an API key): a text, email, URL or number field becomes
   * `<input type="password">` with a Show / Hide button. Other kinds are drawn as usual.
   */
  readonly secret?: boolean;
}

const INPUT_TYPES: Partial<Record<FormField['kind'], string>> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

/** The kinds typed as text, which a password input can take in place of their own control. */
const MASKABLE = new Set<FormField['kind']>(['text', 'email', 'uri', 'number', 'integer']);

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

function textControl(field: FormField, id: string, describedBy: string, masked: boolean) {
  const whole = field.kind === 'integer';
  const numeric = whole || field.kind === 'number';
  const input = el('input', {
    id,
    type: masked ? 'password' : (INPUT_TYPES[field.kind] ?? 'text'),
    inputmode: numeric ? (whole ? 'numeric' : 'decimal') : undefined,
    autocomplete: 'off',
    spellcheck: field.kind === 'text' && !masked ? undefined : 'false',
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

/**
 * The Show / Hide button beside a masked input. Its name says which field it reveals, and the
 * visible word leads the name (so a voice command "click Show" finds it).
 */
function revealToggle(input: HTMLInputElement, title: string) {
  const button = el('button', {
    type: 'button',
    class: 'parley-button parley-secondary parley-reveal',
    'aria-controls': input.id,
  });
  const set = (shown: boolean) => {
    input.type = shown ? 'text' : 'password';
    button.textContent = shown ? 'Hide' : 'Show';
    button.setAttribute('aria-label', `${shown ? 'Hide' : 'Show'} ${title}`);
  };
  set(false);
  button.addEventListener('click', () => set(input.type === 'password'));
  return { button, conceal: () => set(false) };
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

function checkboxView(field: FormField, id: string, secret: boolean): FieldView {
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
  return finish(
    field,
    element,
    box,
    error,
    () => ({ ok: true, value: box.checked }),
    [box],
    secrecyOf(secret),
  );
}

function manyView(field: FormField, id: string, secret: boolean): FieldView {
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
  return finish(field, element, boxes[0] ?? element, error, read, boxes, secrecyOf(secret));
}

interface Secrecy {
  readonly secret: boolean;
  conceal(): void;
}

const PLAIN: Secrecy = { secret: false, conceal() {} };

/** A secret field that has nothing to mask (a checkbox, a choice): only its review hides it. */
function secrecyOf(secret: boolean): Secrecy {
  return secret ? { secret: true, conceal() {} } : PLAIN;
}

function finish(
  field: FormField,
  element: HTMLElement,
  focusTarget: HTMLElement,
  error: HTMLElement,
  read: () => FieldReading,
  invalidTargets: HTMLElement[] = [focusTarget],
  secrecy: Secrecy = PLAIN,
): FieldView {
  element.dataset.field = field.name;
  return {
    field,
    element,
    read,
    secret: secrecy.secret,
    conceal: secrecy.conceal,
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
 * unique on the page.
 *
 * @example
 * import { listFields } from '@parley/core/form';
 * import { createFieldView } from '@parley/renderer/parts';
 *
 * const [field] = listFields({ type: 'object', properties: { key: { type: 'string', title: 'API key' } } });
 * const view = createFieldView(field!, 'key', { secret: true });
 * document.body.append(view.element); // a password input with a Show button
 * view.read(); // { ok: true, value: 'what was typed' }
 */
export function createFieldView(field: FormField, id: string, options: FieldViewOptions = {}): FieldView {
  if (field.kind === 'boolean') return checkboxView(field, id, options.secret === true);
  if (field.kind === 'many') return manyView(field, id, options.secret === true);
  const { lines, error, describedBy } = notes(
    field,
    id,
    field.kind === 'date-time' ? options.timeZone || timeZoneLabel() : '',
  );
  const masked = options.secret === true && MASKABLE.has(field.kind);
  const { control, read } =
    field.kind === 'choice'
      ? choiceControl(field, id, describedBy)
      : textControl(field, id, describedBy, masked);
  const toggle = masked ? revealToggle(control as HTMLInputElement, field.title) : undefined;
  const element = el(
    'div',
    { class: 'parley-field', 'data-kind': field.kind },
    el('label', { for: id }, ...labelText(field)),
    ...lines,
    toggle ? el('div', { class: 'parley-secret' }, control, toggle.button) : control,
    error,
  );
  const secrecy = toggle ? { secret: true, conceal: toggle.conceal } : secrecyOf(options.secret === true);
  return finish(field, element, control, error, read, [control], secrecy);
}
