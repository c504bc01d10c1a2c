import type { AskItem } from '../ask/ask-item.js';
import { kindOf } from '../ask/kind-table.js';
import type { OutOfBandLink } from '../ask/question-kind.js';

/** Thrown out of an ask point whose questions are answered by a link in the result: the call parks. */
export const PARK: unique symbol = Symbol('parley.park');

/**
 * What a parked call answers with: the links the person answers on, and the text that tells them
 * (and the model) to make the same request again once they did. Each surface turns it into its own
 * result (a tool result, a prompt's message, a resource's text).
 */
export interface ParkedOutcome {
  readonly text: string;
  readonly links: readonly (OutOfBandLink & { readonly key: string })[];
  /** An anonymous 2026-07-28 caller's resume token: the same call, carrying it back, goes on. */
  readonly resume?: string;
}

const parkedOutcomes = new WeakSet<object>();

/** The outcome of a call parked at `items` (the out-of-band ones not answered yet). */
export function parkedOutcome(
  items: readonly AskItem[],
  asker: string,
  call: { readonly method: string; readonly target: string },
  options: {
    /** An anonymous 2026-07-28 caller's resume token, given with the links. */
    readonly resume?: string | undefined;
    /** Links this call's results carried before, not given again (a call parked by address). */
    readonly withheld?: (url: string) => boolean;
  } = {},
): ParkedOutcome {
  const { resume, withheld } = options;
  const all = items.flatMap((item) => {
    const link = kindOf(item).outOfBand?.(item);
    return link ? [{ key: item.key, ...link }] : [];
  });
  const links = withheld ? all.filter((link) => !withheld(link.url)) : all;
  const waiting = all.filter((link) => !links.includes(link));
  const what =
    call.method === 'tools/call'
      ? `call ${call.target} again with the same arguments`
      : call.method === 'prompts/get'
        ? `get the prompt ${call.target} again with the same arguments`
        : `read ${call.target} again`;
  const asked = [
    ...links.map((link) => `- ${link.message}\n  Answer here: ${link.url}`),
    ...waiting.map(
      (link) => `- ${link.message}\n  Answer on the page this call was sent to when it was made.`,
    ),
  ].join('\n');
  const text =
    `${asker} needs an answer from you to go on, and this app cannot show the question, so it is on a page:\n` +
    `${asked}\n` +
    `Open the link, answer there, then ask your app to ${what}: it goes on from where it stopped. ` +
    'Each link works once and expires.';
  const outcome: ParkedOutcome = { text, links, ...(resume !== undefined && { resume }) };
  parkedOutcomes.add(outcome);
  return outcome;
}

/** Whether an era's outcome is a parked call's (never a handler's own value). */
export function isParkedOutcome(value: unknown): value is ParkedOutcome {
  return typeof value === 'object' && value !== null && parkedOutcomes.has(value);
}
