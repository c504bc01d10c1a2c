import type { FieldOption, FormField, FormValue } from './types.js';

/** What a person typed, turned into a wire value; the caller then checks it with `checkField`. */
export type TextConversion = { ok: true; value: FormValue | undefined } | { ok: false; message: string };

// Plain decimal notation with an optional exponent: no hex, no "Infinity", no thousands separators.
const NUMBER_SYNTAX = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const YES = ['yes', 'y', 'true'];
const NO = ['no', 'n', 'false'];

function toNumber(text: string, whole: boolean): TextConversion {
  const message = whole ? 'Enter a whole number' : 'Enter a number';
  if (!NUMBER_SYNTAX.test(text)) return { ok: false, message };
  const value = Number(text);
  if (!Number.isFinite(value) || (whole && !Number.isInteger(value))) return { ok: false, message };
  return { ok: true, value };
}

/** The option a person meant: its exact value, else a value or label matching without case. */
function findOption(options: readonly FieldOption[], text: string): FieldOption | undefined {
  const exact = options.find((option) => option.value === text);
  if (exact) return exact;
  const lower = text.toLowerCase();
  const loose = options.filter(
    (option) => option.value.toLowerCase() === lower || option.label.toLowerCase() === lower,
  );
  return loose.length === 1 ? loose[0] : undefined;
}

function unknownOption(text: string, options: readonly FieldOption[]): TextConversion {
  return {
    ok: false,
    message: `"${text}" is not an option; choose one of: ${options.map((option) => option.label).join(', ')}`,
  };
}

/**
 * Converts what a person typed into the field's wire value: `''` is no answer (`undefined`);
 * numbers need plain decimal syntax; booleans take yes/no/y/n/true/false; a choice takes an option's
 * value or label; a multi-select takes a comma-separated list. Validate the result with
 * `checkField` or `parseContent`. Never throws.
 *
 * @example
 * const form = ask.form({ age: ask.integer(), colors: ask.many({ red: 'Red', blue: 'Blue' }) });
 * const [ageField, colorsField] = listFields(prepareQuestion(form).schema);
 * fieldFromText(ageField!, '42'); // { ok: true, value: 42 }
 * fieldFromText(ageField!, '4.5'); // { ok: false, message: 'Enter a whole number' }
 * fieldFromText(colorsField!, 'red, Blue'); // { ok: true, value: ['red', 'blue'] }
 */
export function fieldFromText(field: FormField, text: string): TextConversion {
  try {
    if (typeof text !== 'string') return { ok: false, message: 'Type an answer' };
    const trimmed = text.trim();
    if (field.kind === 'text') return { ok: true, value: text === '' ? undefined : text };
    if (trimmed === '') return { ok: true, value: undefined };
    const options = field.options ?? [];
    switch (field.kind) {
      case 'number':
      case 'integer':
        return toNumber(trimmed, field.kind === 'integer');
      case 'boolean': {
        const lower = trimmed.toLowerCase();
        if (YES.includes(lower)) return { ok: true, value: true };
        if (NO.includes(lower)) return { ok: true, value: false };
        return { ok: false, message: 'Answer yes or no' };
      }
      case 'choice': {
        const option = findOption(options, trimmed);
        return option ? { ok: true, value: option.value } : unknownOption(trimmed, options);
      }
      case 'many': {
        const whole = findOption(options, trimmed);
        if (whole) return { ok: true, value: [whole.value] };
        const values: string[] = [];
        for (const part of trimmed.split(',').map((item) => item.trim())) {
          if (part === '') continue;
          const option = findOption(options, part);
          if (!option) return unknownOption(part, options);
          values.push(option.value);
        }
        return { ok: true, value: values };
      }
      default:
        return { ok: true, value: trimmed };
    }
  } catch {
    return { ok: false, message: 'This answer cannot be read' };
  }
}
