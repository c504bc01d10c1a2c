import {
  argumentFields,
  checkField,
  type FormField,
  isRecord,
  listFields,
  type RequestedSchema,
} from '@parley/core/form';
import { createFieldView, el } from '@parley/renderer/parts';

/** One argument of a call form: a field of the elicitation subset, or JSON for anything richer. */
export interface ArgumentView {
  readonly name: string;
  readonly element: HTMLElement;
  /** The value to send (`undefined` = leave out), or the message to show. */
  read(): { ok: true; value: unknown } | { ok: false; message: string };
  showError(message: string | undefined): void;
  focus(): void;
}

/** Marks a required argument's label: in a call form many arguments are optional, some are not. */
function markRequired(element: HTMLElement, field: FormField): void {
  if (!field.required) return;
  element.querySelector('label, legend')?.append(' ', el('span', { class: 'required-mark' }, '(required)'));
}

function fieldArgument(field: FormField, id: string): ArgumentView {
  const view = createFieldView(field, id);
  markRequired(view.element, field);
  // An optional yes/no the person never touched is left out, not sent as false: a checkbox cannot
  // say "not given" otherwise, and a tool may treat an absent argument differently.
  let untouched = field.kind === 'boolean' && !field.required && field.default === undefined;
  if (untouched) view.element.addEventListener('change', () => (untouched = false), { once: true });
  return {
    name: field.name,
    element: view.element,
    read() {
      if (untouched) return { ok: true, value: undefined };
      const reading = view.read();
      if (!reading.ok) return reading;
      const problem = checkField(field, reading.value);
      return problem === undefined ? { ok: true, value: reading.value } : { ok: false, message: problem };
    },
    showError: (message) => view.showError(message),
    focus: () => view.focus(),
  };
}

/** A property outside the form subset (an object, a list of anything, a union): typed as JSON. */
function jsonArgument(
  name: string,
  schema: unknown,
  required: boolean,
  id: string,
  typed: unknown,
): ArgumentView {
  const node = isRecord(schema) ? schema : {};
  const title = typeof node.title === 'string' && node.title !== '' ? node.title : name;
  const description = typeof node.description === 'string' ? node.description : '';
  const error = el('p', { id: `${id}-error`, class: 'parley-error', 'aria-live': 'polite' });
  const hint = el(
    'p',
    { id: `${id}-hint`, class: 'parley-hint' },
    `JSON${typeof node.type === 'string' ? ` (${node.type})` : ''}, like ${node.type === 'array' ? '["a", "b"]' : '{"key": "value"}'}.`,
  );
  const area = el('textarea', {
    id,
    rows: '3',
    spellcheck: 'false',
    'aria-describedby': `${description ? `${id}-description ` : ''}${id}-hint ${id}-error`,
    'aria-required': required ? 'true' : undefined,
  });
  const shown = typed !== undefined ? typed : node.default;
  if (shown !== undefined) area.value = JSON.stringify(shown);
  const element = el(
    'div',
    { class: 'parley-field', 'data-kind': 'json', 'data-field': name },
    el(
      'label',
      { for: id },
      title,
      required
        ? el('span', { class: 'required-mark' }, ' (required)')
        : el('span', { class: 'parley-optional' }, ' (optional)'),
    ),
    description ? el('p', { id: `${id}-description`, class: 'parley-description' }, description) : null,
    hint,
    area,
    error,
  );
  return {
    name,
    element,
    read() {
      if (area.value.trim() === '') {
        return required ? { ok: false, message: 'This field is required' } : { ok: true, value: undefined };
      }
      try {
        return { ok: true, value: JSON.parse(area.value) };
      } catch {
        return { ok: false, message: 'Enter valid JSON' };
      }
    },
    showError(message) {
      error.textContent = message ?? '';
      if (message === undefined) area.removeAttribute('aria-invalid');
      else area.setAttribute('aria-invalid', 'true');
    },
    focus: () => area.focus(),
  };
}

/**
 * The argument views for a tool's input schema: every property a form can ask gets the same
 * control a form question would (read as `argumentFields` reads it: a real range, no z.int()
 * safe-integer bounds); the rest are JSON text areas. `typed`: values the person typed before,
 * shown again.
 */
export function toolArguments(
  inputSchema: unknown,
  prefix: string,
  typed: Readonly<Record<string, unknown>> = {},
): ArgumentView[] {
  const schema = isRecord(inputSchema) ? inputSchema : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === 'string')
    : [];
  const names = Object.keys(properties);
  const askable = argumentFields(schema, names).properties;
  return names.map((name, index) => {
    const id = `${prefix}a${index}`;
    const node = askable[name];
    const before = Object.hasOwn(typed, name) ? typed[name] : undefined;
    if (node) {
      const shown = before === undefined ? node : { ...node, default: before };
      const single = { type: 'object', properties: { [name]: shown }, required } as RequestedSchema;
      const [field] = listFields(single);
      if (field) return fieldArgument(field, id);
    }
    return jsonArgument(name, properties[name], required.includes(name), id, before);
  });
}

/** Text fields for named string arguments (prompt arguments, resource template variables). */
export function textArguments(
  list: readonly { name: string; description?: string; required?: boolean }[],
  prefix: string,
  typed: Readonly<Record<string, unknown>> = {},
): ArgumentView[] {
  return list.map((item, index) => {
    const before = Object.hasOwn(typed, item.name) ? typed[item.name] : undefined;
    return fieldArgument(
      {
        name: item.name,
        title: item.name,
        required: item.required === true,
        kind: 'text',
        ...(item.description !== undefined && { description: item.description }),
        ...(typeof before === 'string' && { default: before }),
      },
      `${prefix}a${index}`,
    );
  });
}
