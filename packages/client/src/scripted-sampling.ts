import type { CreateMessageResult } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import type { SamplingDecline } from './types.js';

/**
 * Whether a scripted answer is a sampling reply: a `CreateMessageResult` (`role`, `model`, and a
 * `content` object or list, which no form answer can hold, so it is never read as form content).
 */
export function isSamplingReply(value: unknown): value is CreateMessageResult {
  return (
    isRecord(value) &&
    typeof value.role === 'string' &&
    typeof value.model === 'string' &&
    (isRecord(value.content) || Array.isArray(value.content))
  );
}

/** Whether keyed or ordered answers script at least one sampling reply (a list's items count too). */
export function scriptsSampling(answers: unknown): boolean {
  const values = Array.isArray(answers) ? answers : isRecord(answers) ? Object.values(answers) : [];
  return values.some((value) =>
    Array.isArray(value) ? value.some(isSamplingReply) : isSamplingReply(value),
  );
}

/** A scripted sampling answer as the host returns it: the reply, or the decline. */
export function samplingAnswerOf(value: unknown): CreateMessageResult | SamplingDecline | undefined {
  if (isSamplingReply(value)) return value;
  if (isRecord(value) && value.action === 'decline' && Object.keys(value).length === 1)
    return { action: 'decline' };
  return undefined;
}
