import type { ElicitOutcome } from '../../ask-types.js';
import type { CheckedReply } from '../question-kind.js';

/** Decline and cancel in the journal: `'d'` and `'c'`; `undefined` for an accepted answer. */
export function encodeRefusal(result: ElicitOutcome<unknown>): 'd' | 'c' | undefined {
  if (result.action === 'decline') return 'd';
  if (result.action === 'cancel') return 'c';
  return undefined;
}

/** The refusal journaled as `'d'` or `'c'`, else `undefined`. */
export function decodeRefusal(encoded: unknown): ElicitOutcome<never> | undefined {
  if (encoded === 'd') return { action: 'decline' };
  if (encoded === 'c') return { action: 'cancel' };
  return undefined;
}

/** The -32602 material for a reply that is not a reply of the item's kind. */
export function malformed(key: string, expected: string): CheckedReply {
  return { status: 'malformed', problem: `the answer for '${key}' is not ${expected}` };
}
