import { boundsText, type FormField } from '@parley/core/form';

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
