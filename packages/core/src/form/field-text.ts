import { optionLabel } from './fields.js';
import type { FormField, FormValue } from './types.js';

/**
 * How bounds are said: `short` for a prompt line ("whole number, 0–150", "1–2 choices"),
 * `sentence` for help under a field ("A whole number from 0 to 150.", "Choose up to 2.").
 */
export type BoundsStyle = 'short' | 'sentence';

function range(low: number | undefined, high: number | undefined, unit: string, style: BoundsStyle): string {
  if (low !== undefined && high !== undefined) {
    if (style === 'short') return `${low}–${high}${unit}`;
    return low === high ? `exactly ${low}${unit}` : `from ${low} to ${high}${unit}`;
  }
  if (low !== undefined) return `at least ${low}${unit}`;
  if (high !== undefined) return style === 'short' ? `at most ${high}${unit}` : `up to ${high}${unit}`;
  return '';
}

function sentence(text: string): string {
  return text === '' ? '' : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * A field's bounds in words (length of a text, range of a number, how many options to choose), or
 * `''` when it has none. The terminal host puts the `short` form in its prompt line; the lab's
 * renderer shows the `sentence` form under the field.
 *
 * @example
 * const [integerField] = listFields(prepareQuestion(ask.integer({ min: 1, max: 5 })).schema);
 * boundsText(integerField!, 'short'); // 'whole number, 1–5'
 * boundsText(integerField!, 'sentence'); // 'A whole number from 1 to 5.'
 */
export function boundsText(field: FormField, style: BoundsStyle): string {
  switch (field.kind) {
    case 'text': {
      const bounds = range(field.minLength, field.maxLength, ' characters', style);
      return style === 'short' ? bounds : sentence(bounds);
    }
    case 'number':
    case 'integer': {
      const bounds = range(field.minimum, field.maximum, '', style);
      if (style === 'short') {
        return [field.kind === 'integer' ? 'whole number' : '', bounds].filter(Boolean).join(', ');
      }
      const noun = field.kind === 'integer' ? 'a whole number' : 'a number';
      return sentence(bounds === '' ? noun : `${noun} ${bounds}`);
    }
    case 'many': {
      if (style === 'short') return range(field.minItems, field.maxItems, ' choices', style);
      const bounds = range(field.minItems, field.maxItems, '', style);
      return bounds === '' ? '' : sentence(`choose ${bounds}`);
    }
    default:
      return '';
  }
}

/**
 * An answer as a review step shows it: option labels rather than wire values, Yes/No, "No answer"
 * for a field left empty and "None chosen" for an empty multi-select.
 *
 * @example
 * const [colorField] = listFields(prepareQuestion(ask.choice({ r: 'Red', g: 'Green' })).schema);
 * displayValue(colorField!, 'g'); // 'Green'
 */
export function displayValue(field: FormField, value: FormValue | undefined): string {
  if (value === undefined) return 'No answer';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    return value.length === 0 ? 'None chosen' : value.map((item) => optionLabel(field, item)).join(', ');
  }
  if (field.kind === 'choice' && typeof value === 'string') return optionLabel(field, value);
  return String(value);
}
