import {
  boundsText,
  checkField,
  displayValue,
  type FormField,
  type FormValue,
  fieldFromText,
} from '@parley/core/form';
import { terminalLine, terminalText } from './terminal-text.js';

const PLACEHOLDERS: Partial<Record<FormField['kind'], string>> = {
  email: 'name@example.com',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
};

/** The prompt line for a field: its title, whether it is optional, its bounds and description (made inert). */
export function fieldLabel(field: FormField): string {
  const parts = [terminalLine(field.title)];
  const bounds = boundsText(field, 'short');
  if (bounds) parts.push(`(${bounds})`);
  if (!field.required) parts.push('(optional)');
  const line = parts.join(' ');
  return terminalText(field.description ? `${line} — ${field.description}` : line);
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
  if (!converted.ok) return { ok: false, message: terminalText(converted.message) };
  const problem = checkField(field, converted.value);
  return problem === undefined ? converted : { ok: false, message: terminalText(problem) };
}

/** An answer as the review screen shows it (option labels, Yes/No), made inert. */
export function shownValue(field: FormField, value: FormValue | undefined): string {
  return terminalText(displayValue(field, value));
}
