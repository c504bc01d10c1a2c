import { isRecord } from '@parley/core';
import { type Json, ToolError } from '@parley/server';
import { MAX_QUESTIONS_PER_ROUND, MAX_RESULT_BYTES, MAX_ROUND_BYTES } from '../leg/limits.js';
import type { Step, UpstreamRequest } from '../leg/step.js';

const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/**
 * What one 2026-07-28 leg's result means for the call: its questions (with the state to send back
 * byte for byte), a state-only round (the upstream asks to be called again), or the result. An
 * upstream that breaks the protocol or sends more than the gateway takes ends the call with an
 * error that says so; nothing of it reaches the host.
 */
export function stepOf(received: unknown, upstream: string, taskKey?: string): Step {
  if (!isRecord(received)) throw broken(upstream, 'its result is not an object');
  const carried = taskKey !== undefined && isRecord(received._meta) ? received._meta[taskKey] : undefined;
  const result = isRecord(carried) ? carried : received;
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (result.resultType === 'task') {
    if (typeof result.taskId !== 'string' || result.taskId === '')
      throw broken(upstream, 'a task result needs a taskId');
    const poll = result.pollIntervalMs;
    return {
      kind: 'task',
      taskId: result.taskId,
      ...(typeof poll === 'number' && Number.isFinite(poll) && poll > 0 && { pollIntervalMs: poll }),
    };
  }
  if (result.resultType !== 'input_required') {
    if (bytes > MAX_RESULT_BYTES) throw tooLarge(upstream, `a result of ${bytes} bytes`, MAX_RESULT_BYTES);
    return { kind: 'result', result: passedOn(result) };
  }
  if (bytes > MAX_ROUND_BYTES) throw tooLarge(upstream, `a round of ${bytes} bytes`, MAX_ROUND_BYTES);
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== 'string')
    throw broken(upstream, 'its requestState is not a string');
  if (inputRequests !== undefined && !isRecord(inputRequests))
    throw broken(upstream, 'its inputRequests is not an object');
  const entries = Object.entries(inputRequests ?? {});
  if (entries.length === 0 && requestState === undefined)
    throw broken(upstream, 'an input_required result needs inputRequests or requestState');
  if (entries.length > MAX_QUESTIONS_PER_ROUND)
    throw new ToolError(
      `The upstream ${upstream} asked ${entries.length} questions in one round; the gateway passes on at most ${MAX_QUESTIONS_PER_ROUND}.`,
    );
  const requests: Record<string, UpstreamRequest> = {};
  for (const [key, entry] of entries) {
    if (
      !isRecord(entry) ||
      typeof entry.method !== 'string' ||
      (entry.params !== undefined && !isRecord(entry.params))
    )
      throw broken(upstream, `its input request "${key.slice(0, 64)}" is not { method, params }`);
    requests[key] = {
      method: entry.method,
      ...(entry.params !== undefined && { params: entry.params as UpstreamRequest['params'] }),
    };
  }
  const via = { kind: 'state', ...(requestState !== undefined && { state: requestState }) } as const;
  return entries.length === 0 ? { kind: 'wait', via } : { kind: 'ask', requests, via };
}

/** A result as the gateway passes it on: without the upstream's `resultType` and server identity. */
function passedOn(result: Record<string, unknown>): { readonly [key: string]: Json } {
  const { resultType: _era, ...rest } = result;
  const meta = rest._meta;
  if (isRecord(meta) && SERVER_INFO_META in meta) {
    const { [SERVER_INFO_META]: _upstreamInfo, ...ownMeta } = meta;
    if (Object.keys(ownMeta).length === 0) delete rest._meta;
    else rest._meta = ownMeta;
  }
  return rest as { readonly [key: string]: Json };
}

function broken(upstream: string, what: string): ToolError {
  return new ToolError(`The upstream ${upstream} broke the MCP protocol (${what}); the call was stopped.`);
}

function tooLarge(upstream: string, what: string, limit: number): ToolError {
  return new ToolError(
    `The upstream ${upstream} sent ${what}; the gateway passes on at most ${limit} bytes.`,
  );
}
