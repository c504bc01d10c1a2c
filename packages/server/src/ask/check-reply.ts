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
      const parsed = item.question.parse(elicit.content ?? {});
      if (parsed.ok) return { status: 'ok', result: { action: 'accept', value: parsed.value } };
      return { status: 'invalid', reason: parsed.errors.map((error) => error.message).join(' ') };
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

/** The message of a question asked again after an invalid answer. */
export function reaskMessage(message: string, reason: string): string {
  return `That answer could not be used: ${reason}\n\n${message}`;
}
