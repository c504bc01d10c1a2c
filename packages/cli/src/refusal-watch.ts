import type { CallEvent } from '@parley/client';

/**
 * Follows a call's events to tell whether it ended right after the person declined or cancelled:
 * the last answers sent contained a decline or cancel, and the server asked nothing after them.
 */
export class RefusalWatch {
  private refusedLast = false;

  readonly onEvent = (event: CallEvent): void => {
    if (event.type === 'answers') {
      this.refusedLast = event.answers.some((answer) => answer.action !== 'accept');
    } else if (event.type === 'input-required' || event.type === 'elicitation') {
      this.refusedLast = false;
    }
  };

  get endedOnRefusal(): boolean {
    return this.refusedLast;
  }
}
