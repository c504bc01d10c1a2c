import { type CreateMessageResult, isSpecType, type Root } from '@modelcontextprotocol/server';

export { type ElicitReply, readElicitReply } from '@parley/core/form';

/** Reads a CreateMessageResult; `undefined` when it is not one. */
export function readSamplingReply(value: unknown): CreateMessageResult | undefined {
  return isSpecType.CreateMessageResult(value) ? (value as CreateMessageResult) : undefined;
}

/** Reads a ListRootsResult's roots; `undefined` when it is not one. */
export function readRootsReply(value: unknown): Root[] | undefined {
  return isSpecType.ListRootsResult(value) ? (value as { roots: Root[] }).roots : undefined;
}
