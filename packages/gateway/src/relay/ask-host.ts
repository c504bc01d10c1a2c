import { type BatchItem, type ParleyContext, SamplingDeclinedError, ToolError } from '@parley/server';
import type { AuditSink, QuestionAudit } from '../audit.js';
import type { UpstreamAnswer, UpstreamRequest } from '../leg/step.js';
import { type Reading, type ReadQuestion, readQuestion } from './upstream-question.js';

/** What asking one round of an upstream's questions needs, besides the questions. */
export interface HostAsk {
  readonly reading: Reading & { readonly ctx: ParleyContext };
  readonly call: { readonly method: string; readonly name: string };
  /** `<host revision> > <upstream revision>`. */
  readonly pairing: string;
  readonly audit: AuditSink;
  /** The host's ids of URL questions by the upstream's (2025-11-25 completions are passed on with them). */
  readonly urlIds: Map<string, string>;
}

/**
 * Puts one round of an upstream's questions to the person through the host, in one batch
 * (`ctx.elicitAll`: one `InputRequiredResult` on 2026-07-28, requests sent together on 2025), and
 * turns each answer into the one the upstream expects. Questions the gateway will not pass on are
 * answered without asking. Each question is audited once, when it is answered. `round` numbers the
 * call's rounds (what the journal keys its facts by).
 */
export async function askHost(
  ask: HostAsk,
  requests: Readonly<Record<string, UpstreamRequest>>,
  round: number | string,
): Promise<Record<string, UpstreamAnswer>> {
  const { ctx } = ask.reading;
  const answers: Record<string, UpstreamAnswer> = {};
  const asked = new Map<string, Extract<ReadQuestion, { item: BatchItem }>>();
  const refused = new Map<string, Extract<ReadQuestion, { refused: UpstreamAnswer }>>();
  for (const [key, request] of Object.entries(requests)) {
    const read = readQuestion(ask.reading, request);
    if ('refused' in read) {
      answers[key] = read.refused;
      refused.set(key, read);
    } else asked.set(key, read);
  }
  // When the round was first asked: journaled, so a later round of a 2026-07-28 host measures from it.
  const askedAt = await ctx.once(`gw:asked:${round}`, () => Date.now());
  if (asked.size > 0) {
    for (const [, read] of asked)
      if (read.elicitation) ask.urlIds.set(read.elicitation.upstream, read.elicitation.host);
    const batch = Object.fromEntries([...asked].map(([key, read]) => [key, read.item]));
    let outcomes: Record<string, unknown>;
    try {
      outcomes = await ctx.elicitAll(batch);
    } catch (error) {
      if (!(error instanceof SamplingDeclinedError)) throw error;
      return declinedSampling(ask, asked, answers);
    }
    for (const [key, read] of asked) answers[key] = read.answer(outcomes[key]);
  }
  // Audited once per call: the journal remembers that this round's answers were recorded.
  await ctx.once(`gw:audit:${round}`, () => {
    const waitMs = Date.now() - askedAt;
    for (const [key, read] of refused)
      ask.audit(
        questionAudit(auditedCall(ask), key, read.mode, 'refused', waitMs, {
          fallback: 'refused',
          reason: read.reason,
        }),
      );
    for (const [key, read] of asked) {
      const answer = answers[key]!;
      const outcome =
        'error' in answer
          ? 'error'
          : ((answer.result.action as QuestionAudit['outcome'] | undefined) ?? 'accept');
      const onPage = read.secret || (read.mode === 'form' && !ctx.can('form'));
      ask.audit(
        questionAudit(auditedCall(ask), key, read.mode, outcome, waitMs, onPage ? { fallback: 'page' } : {}),
      );
    }
    return 1;
  });
  return answers;
}

/** A 2025 host declined a sampling request (its `-1`): the upstream hears the same, or the call ends. */
function declinedSampling(
  ask: HostAsk,
  asked: ReadonlyMap<string, Extract<ReadQuestion, { item: BatchItem }>>,
  answers: Record<string, UpstreamAnswer>,
): Record<string, UpstreamAnswer> {
  if (!ask.reading.live)
    throw new ToolError(
      `The person declined the model request (sampling) of ${ask.reading.asker}, so the call cannot go on.`,
    );
  for (const [key, read] of asked)
    answers[key] =
      read.mode === 'sampling'
        ? { error: { code: -1, message: 'User rejected sampling request' } }
        : { result: { action: 'cancel' } };
  return answers;
}

/** The call a question belongs to, as its audit event names it. */
export interface AuditedCall {
  readonly upstream: string;
  readonly method: string;
  readonly name: string;
  /** `<host revision> > <upstream revision>`. */
  readonly pairing: string;
  readonly user: string | undefined;
}

/** One question's audit event (never its answer). */
export function questionAudit(
  call: AuditedCall,
  key: string,
  mode: QuestionAudit['mode'],
  outcome: QuestionAudit['outcome'],
  waitMs: number,
  extra: Pick<QuestionAudit, 'fallback' | 'reason'>,
): QuestionAudit {
  return {
    type: 'question',
    at: new Date(Date.now() - waitMs).toISOString(),
    upstream: call.upstream,
    method: call.method,
    name: call.name,
    key,
    mode,
    pairing: call.pairing,
    outcome,
    waitMs,
    ...extra,
    ...(call.user !== undefined && { user: call.user }),
  };
}

/** The call a round's questions belong to, as their audit events name it. */
function auditedCall(ask: HostAsk): AuditedCall {
  return {
    upstream: ask.reading.upstream,
    method: ask.call.method,
    name: ask.call.name,
    pairing: ask.pairing,
    user: ask.reading.ctx.user?.id,
  };
}
