import { checkField } from './check-field.js';
import { isRecord, own } from './json.js';
import type { FieldError, FormContent, FormField, FormValue, ParseResult } from './types.js';

/**
 * Checks answer content against described fields: every field by the rules of `checkField`, and
 * every key the form does not ask for reported. On success the value is a fresh copy holding only
 * the answered fields.
 */
export function checkContent(fields: readonly FormField[], content: unknown): ParseResult<FormContent> {
  if (!isRecord(content)) {
    return { ok: false, errors: [{ field: '', message: 'The answer must be an object of field values' }] };
  }
  const errors: FieldError[] = [];
  const value: FormContent = {};
  for (const field of fields) {
    const answer = own(content, field.name) as FormValue | undefined;
    const message = checkField(field, answer);
    if (message !== undefined) errors.push({ field: field.name, message });
    else if (answer !== undefined) {
      Object.defineProperty(value, field.name, {
        value: Array.isArray(answer) ? [...answer] : answer,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  const asked = new Set(fields.map((field) => field.name));
  for (const key of Object.keys(content)) {
    if (!asked.has(key))
      errors.push({ field: key, message: 'This form does not ask for this field; remove it' });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}
