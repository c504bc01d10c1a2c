import type { ParleyServer } from '@parley/server';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tools that log, report progress, and change the server's lists while it serves. */
export function addNotificationFixtures(server: ParleyServer): void {
  server.tool(
    'test_tool_with_logging',
    { description: 'Logs three messages while it runs' },
    async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await pause(50);
      await ctx.log('info', 'Tool processing data');
      await pause(50);
      await ctx.log('info', 'Tool execution completed');
      return 'Logging test completed.';
    },
  );

  server.tool(
    'test_tool_with_progress',
    { description: 'Reports progress while it runs' },
    async (_args, ctx) => {
      await ctx.progress(0, 100);
      await pause(50);
      await ctx.progress(50, 100);
      await pause(50);
      await ctx.progress(100, 100);
      return 'Progress test completed.';
    },
  );

  server.tool(
    'test_reconnection',
    { description: 'Ends its SSE stream mid-call; the client polls back' },
    async (_args, ctx) => {
      ctx.closeStream();
      await pause(200);
      return 'Reconnection test completed.';
    },
  );

  let added = 0;
  server.tool(
    'test_trigger_tool_change',
    { description: 'Adds a tool (listeners hear tools/list_changed)' },
    () => {
      added++;
      server.tool(`test_added_tool_${added}`, { description: 'Added at run time' }, () => 'Added.');
      return `Added test_added_tool_${added}.`;
    },
  );
  server.tool(
    'test_trigger_prompt_change',
    { description: 'Adds a prompt (listeners hear prompts/list_changed)' },
    () => {
      added++;
      server.prompt(`test_added_prompt_${added}`, { description: 'Added at run time' }, () => 'Added.');
      return `Added test_added_prompt_${added}.`;
    },
  );
  server.tool('test_trigger_resource_update', { description: 'Says test://watched-resource changed' }, () => {
    server.notifyResourceUpdated('test://watched-resource');
    return 'Updated.';
  });
}
