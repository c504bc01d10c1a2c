import { FlowExpiredError, FlowFailedError } from '../../errors.js';
import type { FlowCheck } from '../../flows/flow-kit.js';
import type { Json } from '../../state/round-state.js';

/**
 * What a page's flow means for the question it answers: its result once done (`done` reads it),
 * `undefined` while it is still open (asked again, or waited on), and the call's end when the page
 * failed it or its link expired (`message` names the question).
 */
export function flowOutcome<T>(
  check: FlowCheck,
  message: string,
  done: (result: Json) => T | Promise<T>,
): T | Promise<T> | undefined {
  switch (check.status) {
    case 'done':
      return done(check.result);
    case 'pending':
      return undefined;
    case 'failed':
      throw new FlowFailedError(check.reason);
    case 'expired':
      throw new FlowExpiredError(message);
  }
}
