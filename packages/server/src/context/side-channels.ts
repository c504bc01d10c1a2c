import type { LoggingLevel, ServerContext } from '@modelcontextprotocol/server';

/**
 * The positions of a call's notifications (`ctx.progress` and `ctx.log` calls, in the order the
 * handler makes them) across the runs of its handler. A handler that runs again from the top (every
 * 2026-07-28 round; each guard-style round on the 2025 eras) makes the same calls again: those at a
 * position an earlier run already reached were sent by that run, so they are not sent again.
 * Handlers are deterministic up to their ask points, so position is identity.
 */
export class NotificationSequence {
  readonly #reached: number;
  #position = 0;
  #stoppedAt: number | undefined;

  /** @param reached how many positions earlier runs of the handler reached (0 on its first run). */
  constructor(reached = 0) {
    this.#reached = reached;
  }

  /** Takes the handler's next notification; false when an earlier run already sent it. */
  next(): boolean {
    return this.#position++ >= this.#reached;
  }

  /**
   * The run stopped at a question (2026-07-28). What the handler sends while it unwinds (a `finally`)
   * is sent but not counted: the next run sends it again when it unwinds, at a later position.
   */
  stop(): void {
    this.#stoppedAt ??= this.#position;
  }

  /** The positions reached by this run and every earlier one: what the next run does not send again. */
  get reached(): number {
    return Math.max(this.#reached, this.#stoppedAt ?? this.#position);
  }
}

/*
 * Progress and log notifications of one call. They ride on the call's own response (its SSE stream
 * on HTTP). What `sequence` says an earlier run already sent is not sent, nor anything once the call
 * is `detached` (it became a task: its request is answered, there is no stream to send on).
 */

/** `ctx.progress`: sent when the request carries a `progressToken`. */
export async function sendProgress(
  sdk: ServerContext,
  sequence: NotificationSequence,
  detached: boolean,
  progress: number,
  total?: number,
  message?: string,
): Promise<void> {
  if (!Number.isFinite(progress) || (total !== undefined && !Number.isFinite(total)))
    throw new TypeError(
      `ctx.progress() takes finite numbers (got ${progress}${total === undefined ? '' : `/${total}`}).`,
    );
  // The position counts whether or not this request can carry progress: the handler's calls are
  // what repeat from run to run, not what a request's token lets through.
  const progressToken = sdk.mcpReq._meta?.progressToken;
  if (!sequence.next() || progressToken === undefined || detached) return;
  await sdk.mcpReq.notify({
    method: 'notifications/progress',
    params: {
      progressToken,
      progress,
      ...(total !== undefined && { total }),
      ...(message !== undefined && { message }),
    },
  });
}

/** `ctx.log`: the SDK applies the level the client asked for (logging/setLevel, or the request's _meta). */
export async function sendLog(
  sdk: ServerContext,
  sequence: NotificationSequence,
  detached: boolean,
  level: LoggingLevel,
  data: unknown,
  logger?: string,
): Promise<void> {
  if (!sequence.next() || detached) return;
  await sdk.mcpReq.log(level, data, logger);
}
