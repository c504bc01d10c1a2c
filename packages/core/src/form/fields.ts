import { isRecord, isStringArray, own } from './json.js';
import type { FieldKind, FieldOption, FormField, FormValue, RequestedSchema } from './types.js';

const FORMAT_KINDS: Record<string, FieldKind> = {
  email: 'email',
  uri: 'uri',
  date: 'date',
  'date-time': 'date-time',
};

function titledOptions(list: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const options: FieldOption[] = [];
  for (const entry of list) {
    if (!isRecord(entry)) return undefined;
    const value = own(entry, 'const');
    const title = own(entry, 'title');
    if (typeof value !== 'string') return undefined;
    options.push({ value, label: typeof title === 'string' ? title : value });
  }
  return options;
}

function enumOptions(values: unknown, names: unknown): FieldOption[] | undefined {
  if (!isStringArray(values)) return undefined;
  const labels = isStringArray(names) && names.length === values.length ? names : values;
  return values.map((value, index) => ({ value, label: labels[index]! }));
}

function kindAndOptions(
  node: Record<string, unknown>,
): { kind: FieldKind; options?: FieldOption[] } | undefined {
  const type = own(node, 'type');
  if (type === 'boolean' || type === 'number' || type === 'integer') return { kind: type };
  if (type === 'string') {
    if (own(node, 'oneOf') !== undefined) {
      const options = titledOptions(own(node, 'oneOf'));
      return options && { kind: 'choice', options };
    }
    if (own(node, 'enum') !== undefined) {
      const options = enumOptions(own(node, 'enum'), own(node, 'enumNames'));
      return options && { kind: 'choice', options };
    }
    const format = own(node, 'format');
    if (format === undefined) return { kind: 'text' };
    return typeof format === 'string' && Object.hasOwn(FORMAT_KINDS, format)
      ? { kind: FORMAT_KINDS[format]! }
      : undefined;
  }
  if (type === 'array') {
    const items = own(node, 'items');
    if (!isRecord(items)) return undefined;
    const options =
      own(items, 'anyOf') !== undefined
        ? titledOptions(own(items, 'anyOf'))
        : enumOptions(own(items, 'enum'), []);
    return options && { kind: 'many', options };
  }
  return undefined;
}

function isFormValue(value: unknown): value is FormValue {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    isStringArray(value)
  );
}

const NUMERIC_KEYS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;

/**
 * Reads one property of a requestedSchema into a {@link FormField}, or `undefined` when the
 * property is not a shape of the subset.
 */
export function describeField(name: string, node: unknown, required: boolean): FormField | undefined {
  if (!isRecord(node)) return undefined;
  const shape = kindAndOptions(node);
  if (!shape) return undefined;
  const title = own(node, 'title');
  const description = own(node, 'description');
  const fallback = own(node, 'default');
  const field: Record<string, unknown> = {
    name,
    required,
    title: typeof title === 'string' && title !== '' ? title : name,
  };
  if (typeof description === 'string') field.description = description;
  field.kind = shape.kind;
  if (isFormValue(fallback)) field.default = Array.isArray(fallback) ? [...fallback] : fallback;
  for (const key of NUMERIC_KEYS) {
    const value = own(node, key);
    if (typeof value === 'number') field[key] = value;
  }
  if (shape.options) field.options = shape.options;
  return field as unknown as FormField;
}

/**
 * Describes every field of a form, in property order, for a host to render. Properties outside
 * the subset are left out (check the schema with `checkRequestedSchema` first). Never throws.
 *
 * @example
 * listFields({ type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] });
 * // [{ name: 'age', required: true, title: 'age', kind: 'integer', minimum: 0 }]
 */
export function listFields(schema: RequestedSchema): FormField[] {
  try {
    if (!isRecord(schema)) return [];
    const properties = own(schema, 'properties');
    if (!isRecord(properties)) return [];
    const required = own(schema, 'required');
    const requiredNames = new Set(isStringArray(required) ? required : []);
    const fields: FormField[] = [];
    for (const [name, node] of Object.entries(properties)) {
      const field = describeField(name, node, requiredNames.has(name));
      if (field) fields.push(field);
    }
    return fields;
  } catch {
    return [];
  }
}

/**
 * What a person reads for one value of a choice or multi-select field: the option's label (its
 * title or `enumNames` entry), or the value itself when the field has no such option.
 *
 * @example
 * const [priority] = listFields(prepareQuestion(ask.choice({ low: 'Low priority', high: 'High priority' })).schema);
 * optionLabel(priority!, 'low'); // 'Low priority'
 */
export function optionLabel(field: FormField, value: string): string {
  return field.options?.find((option) => option.value === value)?.label ?? value;
}
