import { type CreateMessageResult, isSpecType, type Root } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';

/** A bare ElicitResult as it arrived in `inputResponses` or as the answer to `elicitation/create`. */
export type ElicitReply =
  | { readonly action: 'accept'; readonly content: unknown }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** Reads an ElicitResult; `undefined` when it is not one (the caller answers -32602). */
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

/** Reads a CreateMessageResult; `undefined` when it is not one. */
export function readSamplingReply(value: unknown): CreateMessageResult | undefined {
  return isSpecType.CreateMessageResult(value) ? (value as CreateMessageResult) : undefined;
}

/** Reads a ListRootsResult's roots; `undefined` when it is not one. */
export function readRootsReply(value: unknown): Root[] | undefined {
  return isSpecType.ListRootsResult(value) ? (value as { roots: Root[] }).roots : undefined;
}
