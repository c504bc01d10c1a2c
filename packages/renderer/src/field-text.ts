import { boundsText, type FormField, type FormValue } from '@parley/core/form';

/**
 * The short help shown under a field: its bounds and the format it takes, or `''`. The rules
 * themselves live in `@parley/core/form`, and so do the words for bounds (`boundsText`).
 */
export function fieldHint(field: FormField, timeZone = ''): string {
  switch (field.kind) {
    case 'email':
      return 'An email address, like name@example.com.';
    case 'uri':
      return 'A full address with its scheme, like https://example.com/page.';
    case 'date-time':
      return timeZone === '' ? '' : `In your time zone (${timeZone}).`;
    default:
      return boundsText(field, 'sentence');
  }
}

/**
 * How the review step shows a secret field's answer: its length, never the value, e.g.
 * `hidden (12 characters)`; only `hidden` for a choice, a yes/no or a multi-select, whose length
 * would give the answer away; `No answer` when it was left empty. Characters are counted as the
 * person sees them (graphemes, where the browser can segment; code points otherwise), so an emoji
 * or an accented letter is one.
 */
export function hiddenValueText(field: FormField, value: FormValue | undefined): string {
  if (value === undefined) return 'No answer';
  // The length of a chosen option's value would tell which option it is.
  if (field.kind === 'choice' || (typeof value !== 'string' && typeof value !== 'number')) return 'hidden';
  const count = characterCount(String(value));
  return `hidden (${count} ${count === 1 ? 'character' : 'characters'})`;
}

let graphemes: Intl.Segmenter | undefined;

function characterCount(text: string): number {
  if (typeof Intl.Segmenter !== 'function') return [...text].length;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}
