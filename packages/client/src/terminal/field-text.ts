import { checkField, type FormField, type FormValue, fieldFromText, optionLabel } from '@parley/core/form';

const PLACEHOLDERS: Partial<Record<FormField['kind'], string>> = {
  email: 'name@example.com',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
};

/** The prompt line for a field: its title, whether it is optional, its bounds and description. */
export function fieldLabel(field: FormField): string {
  const parts = [field.title];
  const bounds = describeBounds(field);
  if (bounds) parts.push(`(${bounds})`);
  if (!field.required) parts.push('(optional)');
  const line = parts.join(' ');
  return field.description ? `${line} — ${field.description}` : line;
}

export function placeholderFor(field: FormField): string | undefined {
  return PLACEHOLDERS[field.kind];
}

function describeBounds(field: FormField): string | undefined {
  const range = (low: number | undefined, high: number | undefined, unit: string) => {
    if (low !== undefined && high !== undefined) return `${low}–${high}${unit}`;
    if (low !== undefined) return `at least ${low}${unit}`;
    if (high !== undefined) return `at most ${high}${unit}`;
    return undefined;
  };
  if (field.kind === 'number' || field.kind === 'integer') {
    return [field.kind === 'integer' ? 'whole number' : undefined, range(field.minimum, field.maximum, '')]
      .filter(Boolean)
      .join(', ');
  }
  if (field.kind === 'many') return range(field.minItems, field.maxItems, ' choices');
  if (field.kind === 'text') return range(field.minLength, field.maxLength, ' characters');
  return undefined;
}

/** What a typed line means for the field, or the reason to ask again. */
export function readTyped(
  field: FormField,
  text: string,
): { ok: true; value: FormValue | undefined } | { ok: false; message: string } {
  const converted = fieldFromText(field, text);
  if (!converted.ok) return converted;
  const problem = checkField(field, converted.value);
  return problem === undefined ? converted : { ok: false, message: problem };
}

/** A value as the review screen shows it: option labels, yes/no, lists joined. */
export function displayValue(field: FormField, value: FormValue | undefined): string {
  if (value === undefined) return '—';
  const label = (item: string) => optionLabel(field, item);
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(label).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && field.kind === 'choice') return label(value);
  return String(value);
}
