import { expect } from 'vitest';
import type { JsonRpcError, ModernReply, ModernWire } from './modern-envelope.js';
import { callTool } from './modern-envelope.js';

/** One `inputRequests` entry as the wire carries it. */
export interface WireInputRequest {
  readonly method: string;
  readonly params: { readonly mode?: string; readonly message: string; readonly [key: string]: unknown };
}

export interface InputRequired {
  readonly inputRequests: Record<string, WireInputRequest>;
  readonly requestState: string;
}

/** Asserts an `InputRequiredResult` (with a state) and returns its requests and state. */
export function inputRequiredOf(reply: ModernReply): InputRequired {
  expect(reply.message.error, JSON.stringify(reply.message.error)).toBeUndefined();
  const result = reply.message.result!;
  expect(result.resultType).toBe('input_required');
  expect(typeof result.requestState).toBe('string');
  return result as unknown as InputRequired;
}

/** Asserts a complete tool result and returns its text (and whether it is an error result). */
export function toolResultOf(reply: ModernReply): { text: string; isError: boolean } {
  expect(reply.message.error, JSON.stringify(reply.message.error)).toBeUndefined();
  const result = reply.message.result!;
  expect(result.resultType).toBe('complete');
  const content = result.content as { type: string; text: string }[];
  return { text: content[0]?.text ?? '', isError: result.isError === true };
}

/** Asserts a JSON-RPC error with `code` and returns it. */
export function errorOf(reply: ModernReply, code: number): JsonRpcError {
  expect(reply.message.result, JSON.stringify(reply.message.result)).toBeUndefined();
  expect(reply.message.error?.code).toBe(code);
  return reply.message.error!;
}

/** The frozen wire error for any state that does not open. */
export const INVALID_STATE = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};

/** A form answer for a single-field question (`ask.integer()` and friends travel as `{ value }`). */
export const accept = (value: unknown) => ({ action: 'accept', content: { value } });
export const decline = { action: 'decline' } as const;
export const cancel = { action: 'cancel' } as const;

/** What the fixture's handlers did so far in that process (its `counters` tool). */
export async function countersOf(
  wire: ModernWire,
  user?: string,
): Promise<{ runs: Record<string, number>; labels: number }> {
  const { text } = toolResultOf(await callTool(wire, 'counters', {}, {}, user === undefined ? {} : { user }));
  return JSON.parse(text);
}
