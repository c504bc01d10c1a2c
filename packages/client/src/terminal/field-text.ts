import { boundsText, checkField, type FormField, type FormValue, fieldFromText } from '@parley/core/form';

const PLACEHOLDERS: Partial<Record<FormField['kind'], string>> = {
  email: 'name@example.com',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
};

/** The prompt line for a field: its title, whether it is optional, its bounds and description. */
export function fieldLabel(field: FormField): string {
  const parts = [field.title];
  const bounds = boundsText(field, 'short');
  if (bounds) parts.push(`(${bounds})`);
  if (!field.required) parts.push('(optional)');
  const line = parts.join(' ');
  return field.description ? `${line} — ${field.description}` : line;
}

export function placeholderFor(field: FormField): string | undefined {
  return PLACEHOLDERS[field.kind];
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
