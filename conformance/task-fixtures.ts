import { ask, type ParleyServer, ToolError } from '@parley/server';
import * as z from 'zod/v4';

/** Waits `ms`, or until `signal` aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** The tools of the tasks extension scenarios (SEP-2663). */
export function addTaskFixtures(server: ParleyServer): void {
  server.tool(
    'greet',
    { description: 'Greets (never a task)', input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );

  server.tool(
    'slow_compute',
    {
      description: 'Sleeps, then answers; runs as a task when the client can poll',
      input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      task: 'optional',
    },
    async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${label ?? 'result'} after ${seconds}s.`;
    },
  );

  server.tool(
    'failing_job',
    { description: 'Always fails as a tool error', task: 'required' },
    async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      throw new ToolError('The job failed: there was nothing to process.');
    },
  );

  server.tool(
    'protocol_error_job',
    { description: 'Fails with an internal error', task: 'optional' },
    async () => {
      throw new Error('the job crashed');
    },
  );

  server.tool(
    'confirm_delete',
    { description: 'Asks before deleting', input: z.object({ filename: z.string() }), task: 'optional' },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(`Delete ${filename}?`, ask.form({ confirm: ask.boolean() }));
      return answer.action === 'accept' && answer.value.confirm
        ? `Deleted ${filename}.`
        : `Kept ${filename}.`;
    },
  );

  const confirmForm = ask.form({ name: ask.text({ optional: true }), confirm: ask.boolean() });
  server.tool(
    'multi_input',
    { description: 'Asks two questions at once', task: 'optional' },
    async (_args, ctx) => {
      const { first, second } = await ctx.elicitAll({
        first: ['First item?', confirmForm],
        second: ['Second item?', confirmForm],
      });
      const name = (answer: typeof first) =>
        answer.action === 'accept' ? (answer.value.name ?? '?') : answer.action;
      return `Got ${name(first)} and ${name(second)}.`;
    },
  );

  server.tool(
    'test_tool_with_task',
    {
      description: 'Asks your name, then works on it as a task',
      task: { support: 'required', start: 'manual' },
    },
    async (_args, ctx) => {
      const name = await ctx.elicit('What is your name?', ask.form({ name: ask.text() }), {
        key: 'user_name',
      });
      await ctx.runAsTask();
      await sleep(200, ctx.signal);
      return `Hello, ${name.action === 'accept' ? name.value.name : 'stranger'}! Your task is done.`;
    },
  );
}
