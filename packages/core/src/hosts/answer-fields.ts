import { plainCopy, setOwn } from '../form/json.js';
import type { FormField } from '../form/types.js';
import type { HostProfile } from './types.js';

const CHOICES = new Set(['choice', 'boolean', 'many']);

/**
 * Whether `host` shows a field's `fallback` (its default) filled in, by the field's kind: where it
 * does, a field the person left empty was emptied by them; where it does not, the field was simply
 * not answered. The test kit's emulator pre-fills by the same rule.
 *
 * @example
 * hostShowsDefault(builtInProfile('codex')!, 'text', 'hello'); // false: Codex ignores text defaults
 */
export function hostShowsDefault(host: HostProfile, kind: FormField['kind'], fallback: unknown): boolean {
  if (fallback === undefined) return false;
  const falsy = fallback === false || fallback === 0 || fallback === '';
  if (falsy && host.falsyDefaults?.value === 'dropped') return false;
  switch (host.defaults?.value) {
    case 'prefilled':
      return true;
    case 'choices-only':
      return CHOICES.has(kind);
    default:
      return false;
  }
}

/**
 * How `host`'s answers are read once they are in the author's fields:
 * - `null` is a field left empty (VS Code sends it for an optional number left at "None");
 * - where the host invents `""` for an optional field nobody touched, `""` is a field left empty;
 * - a field left empty gets its default only where the host did not show that default: where it
 *   did (pre-filled), an optional field the person cleared stays empty. A required field is filled
 *   either way (a host that shows it required cannot leave it empty).
 * `sentDefaults`: the default each field was sent with (a revision may have dropped some; default:
 * every field's own). Takes the raised content and returns a fresh object.
 */
export function answerFields(
  host: HostProfile,
  sentDefaults?: ReadonlyMap<string, unknown>,
): (fields: readonly FormField[], raised: Record<string, unknown>) => Record<string, unknown> {
  const emptyIsUntouched = host.untouched?.value.text === '';
  return (fields, raised) => {
    const content: Record<string, unknown> = {};
    for (const field of fields) {
      let value = Object.hasOwn(raised, field.name) ? raised[field.name] : undefined;
      if (value === null) value = undefined;
      if (value === '' && emptyIsUntouched && !field.required) value = undefined;
      const shown = sentDefaults ? sentDefaults.get(field.name) : field.default;
      if (
        value === undefined &&
        field.default !== undefined &&
        (field.required || !hostShowsDefault(host, field.kind, shown))
      )
        value = plainCopy(field.default);
      if (value !== undefined) setOwn(content, field.name, value);
    }
    return content;
  };
}
