import { applyDefaults, listFields, type PreparedQuestion } from '@parley/core/form';
import type { AskItem, ItemResult } from './ask-item.js';
import { readElicitReply, readRootsReply, readSamplingReply } from './responses.js';

/** What one reply means for its item. */
export type CheckedReply =
  | { readonly status: 'ok'; readonly result: ItemResult }
  /** The person's answer does not fit the question: ask again with `reason`. */
  | { readonly status: 'invalid'; readonly reason: string }
  /** The client sent something that is not a reply of this kind at all: a protocol error. */
  | { readonly status: 'malformed'; readonly problem: string };

const EXPECTED: Record<AskItem['kind'], string> = {
  form: 'an ElicitResult ({ action: "accept" | "decline" | "cancel", content? })',
  url: 'an ElicitResult ({ action: "accept" | "decline" | "cancel" })',
  sampling: 'a CreateMessageResult',
  roots: 'a ListRootsResult ({ roots: [...] })',
};

/** Checks one reply against the item it answers, with the same rules on both eras. */
export function checkReply(item: AskItem, reply: unknown): CheckedReply {
  const malformed = (): CheckedReply => ({
    status: 'malformed',
    problem: `the answer for '${item.key}' is not ${EXPECTED[item.kind]}`,
  });
  switch (item.kind) {
    case 'form': {
      const elicit = readElicitReply(reply);
      if (!elicit) return malformed();
      if (elicit.action !== 'accept')
        return { status: 'ok', result: { action: elicit.action } as ItemResult };
      const parsed = item.question.parse(liberalContent(item.question, elicit.content));
      if (parsed.ok) return { status: 'ok', result: { action: 'accept', value: parsed.value } };
      return { status: 'invalid', reason: describeErrors(item.question, parsed.errors) };
    }
    case 'url': {
      const elicit = readElicitReply(reply);
      return elicit ? { status: 'ok', result: { action: elicit.action } as ItemResult } : malformed();
    }
    case 'sampling': {
      const result = readSamplingReply(reply);
      return result ? { status: 'ok', result } : malformed();
    }
    case 'roots': {
      const roots = readRootsReply(reply);
      return roots ? { status: 'ok', result: roots } : malformed();
    }
  }
}

/**
 * Reads accepted content liberally where its meaning is clear (README, "Compatibility"):
 * - a field sent as `null` was left empty: the spec types content values as string, number,
 *   boolean or string[], so `null` can mean nothing else (FastMCP's Python client sends it for an
 *   empty optional field);
 * - a field left out takes the form's declared `default`: defaults pre-fill the form (SEP-1034), and
 *   clients that do not pre-fill (the Python SDK's, FastMCP's) would otherwise be asked again for a
 *   value the form already names.
 * Anything else (an object where a value belongs, a wrong type) is checked as sent and asked again.
 */
function liberalContent(question: PreparedQuestion<unknown>, content: unknown): unknown {
  if (content === undefined || content === null) return applyDefaults(question.schema, {});
  if (typeof content !== 'object' || Array.isArray(content)) return content;
  const present = Object.entries(content as Record<string, unknown>).filter(([, value]) => value !== null);
  return applyDefaults(question.schema, Object.fromEntries(present));
}

/** One sentence per bad field, named by its title ("Boxes: Enter a whole number between 1 and 3."). */
function describeErrors(
  question: PreparedQuestion<unknown>,
  errors: readonly { field: string; message: string }[],
): string {
  const titles = new Map(listFields(question.schema).map((field) => [field.name, field.title]));
  return errors
    .map(({ field, message }) => {
      const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
      return question.wrapped ? sentence : `${titles.get(field) ?? field}: ${sentence}`;
    })
    .join(' ');
}

/** The message of a question asked again after an invalid answer. */
export function reaskMessage(message: string, reason: string): string {
  return `That answer could not be used: ${reason}\n\n${message}`;
}
