import type { LoggingLevel, ServerContext } from '@modelcontextprotocol/server';

/**
 * Progress and log notifications of one call. They ride on the call's own response (its SSE stream
 * on HTTP). While `replaying()` says the handler is re-running what an earlier round already ran,
 * nothing is sent: that round sent it.
 */
export function sideChannels(sdk: ServerContext, replaying: () => boolean) {
  const progressToken = sdk.mcpReq._meta?.progressToken;
  return {
    async progress(progress: number, total?: number, message?: string): Promise<void> {
      if (!Number.isFinite(progress) || (total !== undefined && !Number.isFinite(total)))
        throw new TypeError(
          `ctx.progress() takes finite numbers (got ${progress}${total === undefined ? '' : `/${total}`}).`,
        );
      if (progressToken === undefined || replaying()) return;
      await sdk.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        },
      });
    },
    async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
      if (replaying()) return;
      // The SDK applies the level the client asked for (logging/setLevel, or the request's _meta).
      await sdk.mcpReq.log(level, data, logger);
    },
  };
}
