import { type FormField, type FormValue, optionLabel } from '@parley/core/form';

function range(lower: number | undefined, upper: number | undefined, unit: string): string {
  if (lower !== undefined && upper !== undefined) {
    return lower === upper ? `exactly ${lower}${unit}` : `from ${lower} to ${upper}${unit}`;
  }
  if (lower !== undefined) return `at least ${lower}${unit}`;
  return upper !== undefined ? `up to ${upper}${unit}` : '';
}

function sentence(text: string): string {
  return text === '' ? '' : `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * The short help shown under a field: its bounds and the format it takes, or `''`. The rules
 * themselves live in `@parley/core/form`; this only says them in words.
 */
export function fieldHint(field: FormField, timeZone = ''): string {
  switch (field.kind) {
    case 'text':
      return sentence(range(field.minLength, field.maxLength, ' characters'));
    case 'email':
      return 'An email address, like name@example.com.';
    case 'uri':
      return 'A full address with its scheme, like https://example.com/page.';
    case 'date-time':
      return timeZone === '' ? '' : `In your time zone (${timeZone}).`;
    case 'number':
    case 'integer': {
      const noun = field.kind === 'integer' ? 'a whole number' : 'a number';
      const bounds = range(field.minimum, field.maximum, '');
      return sentence(bounds === '' ? noun : `${noun} ${bounds}`);
    }
    case 'many': {
      const bounds = range(field.minItems, field.maxItems, '');
      return bounds === '' ? '' : sentence(`choose ${bounds}`);
    }
    default:
      return '';
  }
}

/** How an answer reads on the review step: option labels, Yes/No, or the text as it will be sent. */
export function displayValue(field: FormField, value: FormValue | undefined): string {
  if (value === undefined) return 'No answer';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    return value.length === 0 ? 'None chosen' : value.map((item) => optionLabel(field, item)).join(', ');
  }
  if (field.kind === 'choice' && typeof value === 'string') return optionLabel(field, value);
  return String(value);
}
