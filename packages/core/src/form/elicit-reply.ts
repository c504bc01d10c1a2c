import { isRecord } from './json.js';

/** A bare ElicitResult as it arrived in `inputResponses` or as the answer to `elicitation/create`. */
export type ElicitReply =
  | { readonly action: 'accept'; readonly content: unknown }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Reads an ElicitResult (the answer to a form or URL question); `undefined` when it is not one.
 *
 * @example
 * readElicitReply({ action: 'accept', content: { n: 2 } }); // { action: 'accept', content: { n: 2 } }
 * readElicitReply({ action: 'maybe' }); // undefined
 */
export function readElicitReply(value: unknown): ElicitReply | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.action) {
    case 'accept':
      return { action: 'accept', content: value.content };
    case 'decline':
      return { action: 'decline' };
    case 'cancel':
      return { action: 'cancel' };
    default:
      return undefined;
  }
}
