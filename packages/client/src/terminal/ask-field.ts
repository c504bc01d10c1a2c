import { isCancel, log, multiselect, select, text } from '@clack/prompts';
import { checkField, type FormField, type FormValue } from '@parley/core/form';
import { fieldLabel, placeholderFor, readTyped } from './field-text.js';
import { promptSignal, type TerminalIO } from './io.js';
import { isTerminalSafe, terminalLine, terminalText } from './terminal-text.js';

/** The person pressed Escape or Ctrl-C. */
export const CANCELLED = Symbol('cancelled');

const NO_ANSWER = '\u0000no-answer';

/**
 * Asks one field with the prompt that suits its kind, pre-filled with `current` (the default or the
 * earlier answer). Typed values are converted with `fieldFromText` and checked with `checkField`;
 * a bad value is refused inline with the reason and asked again.
 */
export async function askField(
  io: TerminalIO,
  field: FormField,
  current: FormValue | undefined,
  signal: AbortSignal,
): Promise<FormValue | undefined | typeof CANCELLED> {
  const common = { ...io, signal: promptSignal(signal), message: fieldLabel(field) };
  switch (field.kind) {
    case 'boolean': {
      const options = [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
        ...(field.required ? [] : [{ value: NO_ANSWER, label: 'No answer' }]),
      ];
      const initialValue =
        current === true ? 'yes' : current === false ? 'no' : field.required ? 'yes' : NO_ANSWER;
      const chosen = await select({ ...common, options, initialValue });
      if (isCancel(chosen)) return CANCELLED;
      return chosen === NO_ANSWER ? undefined : chosen === 'yes';
    }
    case 'choice': {
      const options = (field.options ?? []).map((option) => ({
        value: option.value,
        label: terminalLine(option.label),
        ...(option.label !== option.value && { hint: terminalLine(option.value) }),
      }));
      if (!field.required) options.push({ value: NO_ANSWER, label: 'No answer' });
      const initialValue = typeof current === 'string' ? current : field.required ? undefined : NO_ANSWER;
      const chosen = await select({
        ...common,
        options,
        ...(initialValue !== undefined && { initialValue }),
      });
      if (isCancel(chosen)) return CANCELLED;
      return chosen === NO_ANSWER ? undefined : chosen;
    }
    case 'many':
      return askMany(io, field, current, signal);
    default: {
      // A default the terminal cannot show as it is is not typed in for the person: it is shown, inert.
      const prefill = current === undefined ? '' : String(current);
      const shown = isTerminalSafe(prefill) ? prefill : '';
      const placeholder = shown === prefill ? placeholderFor(field) : terminalText(prefill);
      const typed = await text({
        ...common,
        ...(placeholder !== undefined && { placeholder }),
        initialValue: shown,
        validate: (value) => {
          const read = readTyped(field, value ?? '');
          return read.ok ? undefined : read.message;
        },
      });
      if (isCancel(typed)) return CANCELLED;
      const read = readTyped(field, typed ?? '');
      // Left blank under an inert default: the person could not clear what was never typed in.
      if (read.ok && read.value === undefined && shown !== prefill) return current;
      return read.ok ? read.value : undefined;
    }
  }
}

/** Multi-select, asked again with the reason until the choice fits min/max. */
async function askMany(
  io: TerminalIO,
  field: FormField,
  current: FormValue | undefined,
  signal: AbortSignal,
): Promise<FormValue | undefined | typeof CANCELLED> {
  let selected = Array.isArray(current) ? current : [];
  while (true) {
    const chosen = await multiselect({
      ...io,
      signal: promptSignal(signal),
      message: fieldLabel(field),
      options: (field.options ?? []).map((option) => ({
        value: option.value,
        label: terminalLine(option.label),
      })),
      initialValues: selected,
      required: false,
    });
    if (isCancel(chosen)) return CANCELLED;
    const value = chosen.length === 0 && !field.required ? undefined : chosen;
    const problem = checkField(field, value);
    if (problem === undefined) return value;
    log.error(terminalText(problem), io);
    selected = chosen;
  }
}
