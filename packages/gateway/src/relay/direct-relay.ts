import { LOG_LEVEL_META_KEY, ProtocolError, type Tool } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import { liberalContent, type PreparedQuestion, prepareQuestion, readElicitReply } from '@parley/core/form';
import { type LoweredForm, lowerForm } from '@parley/core/hosts';
import {
  type DirectToolCall,
  type DirectToolCalls,
  type DirectToolOutcome,
  type Json,
  ToolError,
  toolErrorResult,
} from '@parley/server';
import type { HostFacts } from '../leg/host-facts.js';
import type { Step, UpstreamAnswer, UpstreamRequest, Via } from '../leg/step.js';
import type { Upstream, UpstreamCall } from '../upstream/upstream.js';
import { questionAudit } from './ask-host.js';
import { upstreamCapabilities } from './capabilities.js';
import type { Handover } from './handovers.js';
import { forwardedMeta, type RelaySettings } from './relay-call.js';
import { type Reading, readQuestion } from './upstream-question.js';

/** A tool the gateway passes on, as the lean path needs to know it (`Mounts.toolOf`). */
export interface RelayedTool {
  readonly upstream: Upstream;
  /** The upstream's listing of it. */
  readonly tool: Tool;
  /** Whether its input schema marks parameters `x-mcp-header` (sent as `Mcp-Param-*` headers too). */
  readonly paramHeaders: boolean;
}

/** What a directly relayed call hands on from one round to the next (sealed by Parley's server). */
interface RoundState {
  /** The upstream's own `requestState`, byte for byte. */
  readonly u?: string;
  /** The questions the upstream asked in the last leg, as it asked them (the host answers these). */
  readonly q?: { readonly [key: string]: UpstreamRequest };
  /** When they were put to the host. */
  readonly at?: number;
  /** Upstream legs the call took so far. */
  readonly l: number;
}

const PAIRING = '2026-07-28 > 2026-07-28';

/**
 * The gateway's lean path for the commonest relay: a 2026-07-28 host calling a tool of a
 * 2026-07-28 upstream over HTTP. Each round is one upstream leg sent straight on the gateway's
 * transport (`Upstream.directLeg`), its questions passed on exactly as Parley's handler would pass
 * them (`readQuestion`'s `relayed` params) and the host's answers checked as Parley checks them,
 * with the upstream's state carried in the gateway's own sealed state: no SDK server, no SDK
 * client, no journal. What only the full path does (a question page for a host that cannot show a
 * form, a secret, a refused URL, sampling and roots, a re-ask after an answer that does not check,
 * a task, a 2025 session under era `auto`, a form a host's profile cannot take, `Mcp-Param-*`
 * headers) hands the call to `relayCall` at the step it reached: nothing is asked of the upstream
 * twice. A host a host profile knows gets its forms lowered and its answers raised, as Parley's
 * handler does.
 */
export function directRelay(
  settings: RelaySettings,
  toolOf: (name: string) => RelayedTool | undefined,
): DirectToolCalls {
  return (call) => {
    const mounted = toolOf(call.name);
    if (mounted === undefined || mounted.paramHeaders || !mounted.upstream.direct) return undefined;
    // Answers sent before anything was asked (no state of ours): the full path takes them, as
    // Parley takes them, for the questions they name.
    if (call.state === undefined && call.params.inputResponses !== undefined) return undefined;
    return relayRound(settings, mounted, call);
  };
}

async function relayRound(
  settings: RelaySettings,
  mounted: RelayedTool,
  call: DirectToolCall,
): Promise<DirectToolOutcome> {
  const { upstream, tool } = mounted;
  const state = call.state as RoundState | undefined;
  const legs = state?.l ?? 0;
  const reading: Reading = {
    ctx: call,
    asker: upstream.title,
    upstream: upstream.name,
    live: false,
    urls: settings.urls,
  };
  let answers: Record<string, UpstreamAnswer> | undefined;
  if (state?.q !== undefined) {
    const audited = {
      upstream: upstream.name,
      method: 'tools/call',
      name: call.name,
      pairing: PAIRING,
      user: call.principal,
    };
    answers = takeAnswers(call, reading, state.q);
    const asked: Step = { kind: 'ask', requests: state.q, via: viaOf(state.u) };
    if (answers === undefined) return handOver(settings, { from: legs - 1, step: asked });
    const waitMs = Date.now() - (state.at ?? Date.now());
    for (const [key, answer] of Object.entries(answers)) {
      const outcome = 'result' in answer ? (answer.result.action as 'accept') : 'error';
      const mode = state.q[key]?.params?.mode === 'url' ? 'url' : 'form';
      settings.audit(questionAudit(audited, key, mode, outcome, waitMs, {}));
    }
  }
  if (legs + 1 > settings.maxLegs)
    return failed(
      new ToolError(`${upstream.name} kept the call going for more than ${settings.maxLegs} legs`),
    );
  const upstreamCall: UpstreamCall = {
    method: 'tools/call',
    params: { name: tool.name, arguments: call.params.arguments ?? {} },
  };
  let step: Step;
  try {
    step = await upstream.directLeg(upstreamCall, hostFacts(settings, call), state?.u, answers);
  } catch (error) {
    if (state === undefined && upstream.fallsBack(error)) return handOver(settings, { live: true });
    return failed(error);
  }
  if (state === undefined && upstream.fallsBack(step)) return handOver(settings, { live: true });
  return outcomeOf(settings, call, reading, step, legs + 1);
}

/** What the host is told of the step the upstream took in leg number `legs`. */
function outcomeOf(
  settings: RelaySettings,
  call: DirectToolCall,
  reading: Reading,
  step: Step,
  legs: number,
): DirectToolOutcome {
  if (step.kind === 'result') return { result: step.result };
  if (step.kind === 'task' || step.via.kind !== 'state') return handOver(settings, { from: legs - 1, step });
  // Each leg that asks or waits is one more round for the host, capped as Parley caps its own.
  if (legs > settings.maxRounds)
    return failed(
      new ToolError(
        `The upstream ${reading.upstream} kept asking for more than ${settings.maxRounds} rounds in one call, so the gateway stopped it; raise maxRounds in the gateway's configuration if it needs more.`,
      ),
    );
  const u = step.via.state;
  if (step.kind === 'wait') return { state: { ...(u !== undefined && { u }), l: legs } };
  const inputRequests: Record<string, Json> = {};
  for (const [key, request] of Object.entries(step.requests)) {
    let read: ReturnType<typeof readQuestion>;
    try {
      read = readQuestion(reading, request);
    } catch (error) {
      return failed(error);
    }
    const params = relayedParams(call, read);
    if (params === undefined) return handOver(settings, { from: legs - 1, step });
    inputRequests[key] = { method: 'elicitation/create', params };
  }
  const state: RoundState = { ...(u !== undefined && { u }), q: step.requests, at: Date.now(), l: legs };
  return { inputRequests, state: state as unknown as Json };
}

/**
 * The host's answers to the questions of the last round, checked as Parley's handler checks them
 * (a form's content read liberally, then against its schema), each turned into the upstream's;
 * `undefined` when one is missing or does not check (the full path then asks again, with why).
 */
function takeAnswers(
  call: DirectToolCall,
  reading: Reading,
  asked: { readonly [key: string]: UpstreamRequest },
): Record<string, UpstreamAnswer> | undefined {
  const responses = call.params.inputResponses;
  if (!isRecord(responses)) return undefined;
  const answers: Record<string, UpstreamAnswer> = {};
  for (const [key, request] of Object.entries(asked)) {
    const reply = readElicitReply(responses[key]);
    if (reply === undefined) return undefined;
    const read = readQuestion(reading, request);
    if (!('item' in read) || read.relayed === undefined) return undefined;
    const question = read.relayed.question;
    if (reply.action !== 'accept' || question === undefined) {
      answers[key] = read.answer({ action: reply.action });
      continue;
    }
    if (!isRecord(reply.content)) return undefined;
    const prepared = prepareQuestion(question);
    const received = receivedContent(call, prepared, reply.content);
    const parsed = received === undefined ? undefined : prepared.parse(received);
    if (!parsed?.ok) return undefined;
    answers[key] = read.answer({ action: 'accept', value: parsed.value });
  }
  return answers;
}

/**
 * The params a question goes to the host with, as Parley's handler sends it: the form lowered for
 * the host where a host profile knows it; `undefined` when only the full path can ask it.
 */
function relayedParams(call: DirectToolCall, read: ReturnType<typeof readQuestion>): Json | undefined {
  if (!('item' in read) || read.relayed === undefined) return undefined;
  const { params, question } = read.relayed;
  if (call.host === undefined || question === undefined) return params;
  const lowered = hostForm(call, prepareQuestion(question));
  return lowered.ok ? { ...params, requestedSchema: lowered.schema as unknown as Json } : undefined;
}

/**
 * A form answer's content in the upstream's fields, as Parley's handler reads it: raised from the
 * form the host was sent where a host profile knows it, else read liberally (a `null` is a field
 * left empty, a field left out takes its default).
 */
function receivedContent(
  call: DirectToolCall,
  prepared: PreparedQuestion<unknown>,
  content: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (call.host !== undefined) {
    const lowered = hostForm(call, prepared);
    const raised = lowered.ok ? lowered.raise(content) : undefined;
    return raised?.ok ? raised.content : undefined;
  }
  return liberalContent(prepared.schema, content);
}

function hostForm(call: DirectToolCall, prepared: PreparedQuestion<unknown>): LoweredForm {
  return lowerForm(prepared.schema, call.host, { protocolVersion: call.protocolVersion });
}

/** The host as a direct leg needs it: this request's capabilities, meta, log level, progress and cancellation. */
function hostFacts(settings: RelaySettings, call: DirectToolCall): HostFacts {
  const meta = isRecord(call.params._meta) ? call.params._meta : {};
  const token = meta.progressToken;
  const level = meta[LOG_LEVEL_META_KEY];
  let last = Number.NEGATIVE_INFINITY;
  return {
    capabilities: upstreamCapabilities(call, settings.pages),
    sessionKey: undefined,
    owner: call.principal,
    meta: forwardedMeta(meta),
    logLevel: typeof level === 'string' ? level : undefined,
    holdMs: settings.holdMs,
    progress: typeof token === 'string' || typeof token === 'number',
    signal: call.signal,
    listeners: {
      progress({ progress, total, message }) {
        if (token === undefined || progress <= last) return;
        last = progress;
        call.notify('notifications/progress', {
          progressToken: token,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        });
      },
      log({ level: said, data, logger }) {
        call.notify('notifications/message', { level: said, data, ...(logger !== undefined && { logger }) });
      },
    },
  };
}

function viaOf(state: string | undefined): Via {
  return { kind: 'state', ...(state !== undefined && { state }) };
}

function handOver(settings: RelaySettings, handover: Handover): DirectToolOutcome {
  return { serve: { meta: settings.handovers.put(handover) } };
}

/** A failed leg as Parley's handler reports it: a tool error result, or the upstream's JSON-RPC error. */
function failed(error: unknown): DirectToolOutcome {
  if (error instanceof ToolError)
    return { result: toolErrorResult(error.message) as Record<string, unknown> };
  if (error instanceof ProtocolError)
    return {
      error: {
        code: error.code,
        message: error.message,
        ...(error.data !== undefined && { data: error.data as Json }),
      },
    };
  throw error;
}
