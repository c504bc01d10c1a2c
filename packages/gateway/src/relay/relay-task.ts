import { ProtocolError } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import { type ParleyContext, ToolError } from '@parley/server';
import type { HostFacts } from '../leg/host-facts.js';
import type { UpstreamRequest } from '../leg/step.js';
import type { Upstream } from '../upstream/upstream.js';
import { askHost, type HostAsk } from './ask-host.js';

const DEFAULT_POLL_MS = 500;
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5_000;

/**
 * The upstream made the call a task: the gateway's call becomes a task of its own (`ctx.runAsTask`,
 * so the host polls the gateway), and the gateway polls the upstream's, passing on each question
 * it waits on (asked through the gateway's task, answered upstream with `tasks/update`) and its
 * outcome: the result, or the failure as the upstream reported it. Cancelling the gateway's task
 * cancels the upstream's.
 */
export async function followTask(
  ctx: ParleyContext,
  upstream: Upstream,
  host: HostFacts,
  ask: HostAsk,
  taskId: string,
  pollIntervalMs: number | undefined,
): Promise<unknown> {
  await ctx.runAsTask();
  const poll = Math.min(Math.max(pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS), MAX_POLL_MS);
  const cancel = () =>
    void upstream.taskRequest('tasks/cancel', { taskId }, host.capabilities).catch(() => {});
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    for (let asked = 1; ; ) {
      if (ctx.signal.aborted) throw new ToolError('The task was cancelled.');
      const task = await upstream.taskRequest('tasks/get', { taskId }, host.capabilities);
      switch (task.status) {
        case 'completed':
          if (!isRecord(task.result))
            throw new ToolError(`The upstream ${upstream.name} completed the task without a result.`);
          return task.result;
        case 'failed': {
          const error = isRecord(task.error) ? task.error : {};
          throw new ProtocolError(
            typeof error.code === 'number' ? error.code : -32603,
            typeof error.message === 'string'
              ? error.message
              : `The upstream ${upstream.name}'s task failed.`,
            error.data,
          );
        }
        case 'cancelled':
          throw new ToolError(`The upstream ${upstream.name} cancelled the task.`);
        case 'input_required': {
          const requests = isRecord(task.inputRequests)
            ? (task.inputRequests as Record<string, UpstreamRequest>)
            : {};
          if (Object.keys(requests).length > 0) {
            const answers = await askHost(ask, requests, `task${asked++}`);
            const inputResponses = Object.fromEntries(
              Object.entries(answers).map(([key, answer]) => [
                key,
                'result' in answer ? answer.result : { action: 'cancel' },
              ]),
            );
            await upstream.taskRequest('tasks/update', { taskId, inputResponses }, host.capabilities);
            continue;
          }
          break;
        }
      }
      await sleep(poll, ctx.signal);
    }
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
