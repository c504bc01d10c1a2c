import { codePointLength, isDate, isDateTime, isEmail, isUri } from './formats.js';
import type { FieldOption, FormField, FormValue } from './types.js';

const FORMAT_RULES: Record<string, { test: (text: string) => boolean; message: string }> = {
  email: { test: isEmail, message: 'Enter an email address like name@example.com' },
  uri: { test: isUri, message: 'Enter a full address with its scheme, like https://example.com/page' },
  date: { test: isDate, message: 'Enter a real date as YYYY-MM-DD, like 2026-07-28' },
  'date-time': {
    test: isDateTime,
    message: 'Enter a date and time with an offset, like 2026-07-28T14:30:00Z or 2026-07-28T14:30:00+02:00',
  },
};

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function rangeMessage(
  lower: number | undefined,
  upper: number | undefined,
  between: (lower: number, upper: number) => string,
  atLeast: (lower: number) => string,
  atMost: (upper: number) => string,
): string {
  if (lower !== undefined && upper !== undefined) return between(lower, upper);
  return lower !== undefined ? atLeast(lower) : atMost(upper!);
}

function checkText(field: FormField, value: FormValue): string | undefined {
  if (typeof value !== 'string') return 'Enter text';
  const length = codePointLength(value);
  const { minLength, maxLength } = field;
  if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) {
    return rangeMessage(
      minLength,
      maxLength,
      (lower, upper) =>
        lower === upper
          ? `Enter exactly ${plural(lower, 'character', 'characters')}`
          : `Enter between ${lower} and ${upper} characters`,
      (lower) => `Enter at least ${plural(lower, 'character', 'characters')}`,
      (upper) => `Enter at most ${plural(upper, 'character', 'characters')}`,
    );
  }
  const format = FORMAT_RULES[field.kind];
  if (format && !format.test(value)) return format.message;
  return undefined;
}

function checkNumber(field: FormField, value: FormValue): string | undefined {
  const whole = field.kind === 'integer';
  const noun = whole ? 'a whole number' : 'a number';
  if (typeof value !== 'number' || !Number.isFinite(value)) return `Enter ${noun}`;
  const { minimum, maximum } = field;
  const outside = (minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum);
  if (outside) {
    return rangeMessage(
      minimum,
      maximum,
      (lower, upper) => (lower === upper ? `Enter ${lower}` : `Enter ${noun} between ${lower} and ${upper}`),
      (lower) => `Enter ${noun} of at least ${lower}`,
      (upper) => `Enter ${noun} of at most ${upper}`,
    );
  }
  if (whole && !Number.isInteger(value)) return `Enter ${noun}`;
  return undefined;
}

function optionList(options: readonly FieldOption[]): string {
  const labels = options.map((option) => option.label);
  return labels.length <= 10 ? labels.join(', ') : `${labels.slice(0, 10).join(', ')}, …`;
}

function checkChoice(field: FormField, value: FormValue): string | undefined {
  const options = field.options ?? [];
  if (typeof value !== 'string' || !options.some((option) => option.value === value)) {
    return `Choose one of: ${optionList(options)}`;
  }
  return undefined;
}

function checkMany(field: FormField, value: FormValue): string | undefined {
  const options = field.options ?? [];
  if (!Array.isArray(value)) return `Choose from: ${optionList(options)}`;
  if (!value.every((item) => options.some((option) => option.value === item))) {
    return `Choose only from: ${optionList(options)}`;
  }
  if (new Set(value).size !== value.length) return 'Choose each option only once';
  const { minItems, maxItems } = field;
  const count = value.length;
  if ((minItems !== undefined && count < minItems) || (maxItems !== undefined && count > maxItems)) {
    return rangeMessage(
      minItems,
      maxItems,
      (lower, upper) =>
        lower === upper ? `Choose exactly ${lower}` : `Choose between ${lower} and ${upper}`,
      (lower) => `Choose at least ${lower}`,
      (upper) => `Choose at most ${upper}`,
    );
  }
  return undefined;
}

/**
 * Checks one field's value with the same rules as `parseContent`, for inline validation while a
 * person types. Returns the message to show, or `undefined` when the value fits. Never throws.
 *
 * @example
 * const [age] = listFields({ type: 'object', properties: { age: { type: 'integer', minimum: 1, maximum: 3 } } });
 * checkField(age!, 7); // 'Enter a whole number between 1 and 3'
 * checkField(age!, undefined); // undefined (the field is optional)
 */
export function checkField(field: FormField, value: FormValue | undefined): string | undefined {
  try {
    if (value === undefined) return field.required ? 'This field is required' : undefined;
    switch (field.kind) {
      case 'text':
      case 'email':
      case 'uri':
      case 'date':
      case 'date-time':
        return checkText(field, value);
      case 'number':
      case 'integer':
        return checkNumber(field, value);
      case 'boolean':
        return typeof value === 'boolean' ? undefined : 'Choose yes or no';
      case 'choice':
        return checkChoice(field, value);
      case 'many':
        return checkMany(field, value);
      default:
        return 'This field cannot be answered; its kind is unknown';
    }
  } catch {
    return 'This value cannot be read';
  }
}
