import { LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/server';
import { isRecord } from '@parley/core';
import type { Json, ParleyContext } from '@parley/server';
import type { AuditSink } from '../audit.js';
import type { LiveCalls } from '../held/live-calls.js';
import type { HostFacts, LiveListeners } from '../leg/host-facts.js';
import type { Step } from '../leg/step.js';
import type { Upstream, UpstreamCall } from '../upstream/upstream.js';
import { askHost } from './ask-host.js';
import { upstreamCapabilities } from './capabilities.js';
import { HANDOVER_META, type Handovers } from './handovers.js';
import { followTask } from './relay-task.js';

/** What every relayed call shares: the gateway's settings and its held calls. */
export interface RelaySettings {
  readonly liveCalls: LiveCalls;
  readonly audit: AuditSink;
  /** Whether the gateway asks on its own question pages what a host cannot show. */
  readonly pages: boolean;
  readonly urls: 'warn' | 'refuse';
  /** How long a 2026-07-28 host's request is held open waiting on an upstream that has nothing new. */
  readonly holdMs: number;
  /** Legs (rounds and waits) one call may take on the upstream side. */
  readonly maxLegs: number;
  /** Rounds of questions one call may put to its host (the gateway's `maxRounds`). */
  readonly maxRounds: number;
  /** Calls `directRelay` served so far and hands on (see `Handovers`). */
  readonly handovers: Handovers;
}

/** One call the gateway passes on: to which upstream, as what, and what the host called it. */
export interface RelayTarget {
  readonly upstream: Upstream;
  readonly call: UpstreamCall;
  /** The host's name for it (the prefixed tool name, the URI). */
  readonly name: string;
}

/**
 * The handler of every tool, prompt and resource the gateway passes on. It is written as a Parley
 * handler, once, and Parley serves it on the host's era: each leg's outcome (a {@link Step}) is
 * journaled with `ctx.once`, so on 2026-07-28 every round replays the legs already made and makes
 * only the next one, and the host's answers come from `ctx.elicitAll` (in-band, or on the gateway's
 * pages: the ladder). Which leg comes next depends on the upstream's era: a 2026-07-28 upstream's
 * next round (its `requestState` sealed inside the gateway's own), or a 2025 upstream's call held
 * open in the gateway and named by a handle.
 */
export async function relayCall(
  settings: RelaySettings,
  target: RelayTarget,
  ctx: ParleyContext,
): Promise<unknown> {
  const { upstream, call } = target;
  const urlIds = new Map<string, string>();
  const host = hostFacts(settings, ctx, upstream, urlIds);
  let live: string | undefined;
  const onAbort = () => {
    if (live !== undefined) settings.liveCalls.drop(live, 'the host cancelled the call', host.owner);
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const handover = settings.handovers.take(ctx.sdk.mcpReq._meta);
    const first = (await ctx.once('gw:0', () => {
      if (handover === undefined) return upstream.begin(call, host) as never;
      if ('live' in handover) return upstream.beginLive(call, host) as never;
      return { ...handover.step, from: handover.from } as never;
    })) as Step & { readonly from?: number };
    let step: Step = first;
    const ask = {
      reading: { ctx, asker: upstream.title, upstream: upstream.name, live: false, urls: settings.urls },
      call: { method: call.method, name: target.name },
      pairing: `${ctx.protocolVersion} > ${upstream.protocolVersion ?? '?'}`,
      audit: settings.audit,
      urlIds,
    };
    for (let leg = 1 + (first.from ?? 0); ; leg++) {
      if (step.kind === 'result') return step.result;
      if (step.kind === 'task')
        return await followTask(ctx, upstream, host, ask, step.taskId, step.pollIntervalMs);
      if (leg > settings.maxLegs)
        throw new Error(`${upstream.name} kept the call going for more than ${settings.maxLegs} legs`);
      const { via } = step;
      live = via.kind === 'live' ? via.handle : undefined;
      let answers: Awaited<ReturnType<typeof askHost>> | undefined;
      if (step.kind === 'ask')
        answers = await askHost(
          {
            ...ask,
            reading: { ...ask.reading, live: via.kind === 'live' },
            // A held call's session may speak another revision than the upstream (era `auto`).
            ...(via.kind === 'live' && { pairing: `${ctx.protocolVersion} > ${via.revision}` }),
          },
          step.requests,
          leg,
        );
      else await ctx.yieldRound();
      step = (await ctx.once(`gw:${leg}`, () => upstream.resume(call, via, answers, host) as never)) as Step;
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** The host as this run of the handler sees it, for the upstream legs it makes. */
function hostFacts(
  settings: RelaySettings,
  ctx: ParleyContext,
  upstream: Upstream,
  urlIds: Map<string, string>,
): HostFacts {
  const modern = ctx.era === 'modern';
  const pinned = upstream.config.era === '2025-06-18' ? '2025-06-18' : undefined;
  return {
    capabilities: upstreamCapabilities(ctx, settings.pages, pinned),
    ...caller(ctx),
    meta: forwardedMeta(ctx.sdk.mcpReq._meta),
    logLevel: modern ? logLevelOf(ctx) : 'debug',
    holdMs: modern ? settings.holdMs : 2_147_483_647,
    signal: ctx.signal,
    listeners: listeners(ctx, urlIds),
  };
}

/** Which 2025 upstream session serves the caller, and whom a held call answers. */
function caller(ctx: ParleyContext): Pick<HostFacts, 'sessionKey' | 'owner'> {
  const owner = ctx.user?.id;
  // stdio is one host for the life of the process.
  if (ctx.transport === 'stdio') return { sessionKey: 'stdio', owner };
  const session = ctx.era === 'handshake' ? ctx.sdk.sessionId : undefined;
  if (session !== undefined) return { sessionKey: `session:${session}`, owner };
  // A 2026-07-28 caller over HTTP is its user, or (anonymous) nothing that lasts beyond this call.
  return { sessionKey: owner === undefined ? undefined : `user:${owner}`, owner };
}

/** The log level a 2026-07-28 host asked for on this request (none: it wants no log messages). */
function logLevelOf(ctx: ParleyContext): string | undefined {
  const envelope = ctx.sdk.mcpReq.envelope;
  const level = isRecord(envelope) ? envelope[LOG_LEVEL_META_KEY] : undefined;
  return typeof level === 'string' ? level : undefined;
}

/** The host request's `_meta` entries that travel on: everything but MCP's own keys, the progress token and a handover. */
export function forwardedMeta(meta: unknown): Record<string, Json> {
  if (!isRecord(meta)) return {};
  const kept: Record<string, Json> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (key === 'progressToken' || key === HANDOVER_META || key.startsWith('io.modelcontextprotocol/'))
      continue;
    kept[key] = value as Json;
  }
  return kept;
}

/** Where the upstream's progress, logs and URL completions go while this run serves the call. */
function listeners(ctx: ParleyContext, urlIds: ReadonlyMap<string, string>): LiveListeners {
  const token = ctx.sdk.mcpReq._meta?.progressToken;
  let last = Number.NEGATIVE_INFINITY;
  return {
    progress({ progress, total, message }) {
      if (token === undefined) return;
      // Each upstream leg counts from its own start; the host's token must only go up.
      const value = progress > last ? progress : last + 0.001;
      last = value;
      if (ctx.era === 'handshake') void ctx.progress(value, total, message).catch(() => {});
      else
        void ctx.sdk.mcpReq
          .notify({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: value,
              ...(total !== undefined && { total }),
              ...(message !== undefined && { message }),
            },
          })
          .catch(() => {});
    },
    log({ level, data, logger }) {
      void ctx.sdk.mcpReq.log(level as LoggingLevel, data, logger).catch(() => {});
    },
    urlComplete(upstreamId) {
      const id = urlIds.get(upstreamId);
      if (id === undefined || ctx.protocolVersion !== '2025-11-25') return;
      void ctx.sdk.mcpReq
        .notify({ method: 'notifications/elicitation/complete', params: { elicitationId: id } })
        .catch(() => {});
    },
  };
}
