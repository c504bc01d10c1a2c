import { randomUUID } from 'node:crypto';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { isRecord } from '@parley/core';
import { isSecret, type QuestionInput } from '@parley/core/form';
import { inspectUrl } from '@parley/core/url';
import {
  type BatchItem,
  input,
  type Json,
  type ParleyContext,
  ToolError,
  unsafeUrlParts,
} from '@parley/server';
import type { UpstreamAnswer, UpstreamRequest } from '../leg/step.js';
import { MAX_FORM_FIELDS, readFormOf } from './form-reading.js';

/** The longest message (or URL) of an upstream question the gateway passes on, in characters. */
export const MAX_MESSAGE_CHARS = 10_000;

/** How an upstream question reaches the person, for the audit. */
export type QuestionMode = 'form' | 'url' | 'sampling' | 'roots';

/**
 * One upstream question, read: a question to ask the host (its batch entry and how to turn the
 * host's answer into the upstream's), or an answer given without asking, with the reason.
 */
export type ReadQuestion =
  | {
      readonly mode: QuestionMode;
      readonly item: BatchItem;
      /** The question goes to a page of the gateway whatever the host shows (a secret). */
      readonly secret: boolean;
      /** The 2025-11-25 id the host is sent for a URL question, and the upstream's own. */
      readonly elicitation?: { readonly host: string; readonly upstream: string };
      /**
       * The `elicitation/create` params a 2026-07-28 host is sent for it when nothing stands between
       * (a form with no secret, a URL), as Parley's server would send its batch item; with the form
       * question it checks the answer against. See `directRelay`.
       */
      readonly relayed?: {
        readonly params: { readonly [key: string]: Json };
        readonly question?: QuestionInput;
      };
      answer(outcome: unknown): UpstreamAnswer;
    }
  | { readonly mode: QuestionMode | 'unknown'; readonly refused: UpstreamAnswer; readonly reason: string };

/** What reading a question needs to know. */
export interface Reading {
  readonly ctx: Pick<ParleyContext, 'can'>;
  /** Who asks, as people read it. */
  readonly asker: string;
  /** The upstream's name, for errors. */
  readonly upstream: string;
  /** Whether the upstream asked over a 2025 session (it can be answered with a JSON-RPC error). */
  readonly live: boolean;
  /** `warn`: show a URL's warnings with it; `refuse`: decline every URL inspectUrl warns about. */
  readonly urls: 'warn' | 'refuse';
}

/**
 * Reads one question an upstream asks and decides how it reaches the person: a form in the MCP
 * subset (read liberally, as Parley's client reads one) is asked as it is, except that a field (or
 * a message) asking for a secret makes it a page of the gateway with secret fields, never relayed
 * in-band; a URL is inspected and refused, or passed on with its warnings, per policy; sampling and
 * roots pass when the host declared them. What cannot be asked is answered as a client would
 * answer it: `cancel` (2026-07-28) or JSON-RPC `-32602` (2025) for a form it cannot show,
 * `decline` for a URL it will not open.
 */
export function readQuestion(reading: Reading, request: UpstreamRequest): ReadQuestion {
  const params = isRecord(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create':
      return params.mode === 'url' ? readUrl(reading, params) : readForm(reading, params);
    case 'sampling/createMessage':
      if (!reading.ctx.can('sampling')) return undeclared(reading, 'sampling', 'sampling/createMessage');
      return {
        mode: 'sampling',
        item: input.sampling(params as unknown as CreateMessageRequestParams),
        secret: false,
        answer: (outcome) => ({ result: outcome as { [key: string]: Json } }),
      };
    case 'roots/list':
      if (!reading.ctx.can('roots')) return undeclared(reading, 'roots', 'roots/list');
      return {
        mode: 'roots',
        item: input.roots(),
        secret: false,
        answer: (outcome) => ({ result: { roots: outcome as Json[] } }),
      };
    default:
      if (!reading.live)
        throw new ToolError(
          `The upstream ${reading.upstream} asked for ${JSON.stringify(request.method).slice(0, 80)}, which is not an MCP input request (elicitation/create, sampling/createMessage, roots/list); the call was stopped.`,
        );
      return {
        mode: 'unknown',
        refused: { error: { code: -32601, message: 'Method not found' } },
        reason: 'not an input request',
      };
  }
}

function readForm(reading: Reading, params: Readonly<Record<string, unknown>>): ReadQuestion {
  const message = params.message;
  if (typeof message !== 'string' || message.length > MAX_MESSAGE_CHARS)
    return cannotShow(
      reading,
      `its message is ${typeof message === 'string' ? 'longer than 10,000 characters' : 'not text'}`,
    );
  const { received, fields, asking, secretFields } = readFormOf(message, params.requestedSchema);
  if (!received.ok)
    return cannotShow(
      reading,
      `its form is outside the MCP schema subset (${received.problems
        .map((problem) => problem.message)
        .join('; ')
        .slice(0, 300)})`,
    );
  if (fields > MAX_FORM_FIELDS)
    return cannotShow(reading, `its form has ${fields} fields (at most ${MAX_FORM_FIELDS})`);
  const question = { kind: 'form', schema: received.schema, secretFields } as unknown as QuestionInput;
  const text = attributed(reading.asker, message, received.description);
  const plain = secretFields.length === 0 && !asking && reading.ctx.can('form');
  return {
    mode: 'form',
    item: input.elicit(text, question, { mentionsSecret: asking }),
    secret: secretFields.length > 0,
    ...(plain && {
      relayed: {
        params: { mode: 'form', message: text, requestedSchema: received.schema as unknown as Json },
        question,
      },
    }),
    answer: (outcome): UpstreamAnswer => {
      const { action, value } = outcome as { action: 'accept' | 'decline' | 'cancel'; value?: unknown };
      return action === 'accept' ? { result: { action, content: revealed(value) } } : { result: { action } };
    },
  };
}

function readUrl(reading: Reading, params: Readonly<Record<string, unknown>>): ReadQuestion {
  const { message, url } = params;
  if (typeof message !== 'string' || message.length > MAX_MESSAGE_CHARS)
    return refusedUrl(
      `its message is ${typeof message === 'string' ? 'longer than 10,000 characters' : 'not text'}`,
    );
  if (typeof url !== 'string' || url.length > MAX_MESSAGE_CHARS) return refusedUrl('its URL is not a URL');
  if (!reading.ctx.can('url')) return refusedUrl('this host did not declare URL mode');
  const inspection = inspectUrl(url);
  if (!inspection.allowed)
    return refusedUrl(
      `inspectUrl does not allow it (${inspection.warnings.map((warning) => warning.code).join(', ')})`,
    );
  const unsafe = unsafeUrlParts(new URL(inspection.href));
  if (unsafe.length > 0) return refusedUrl(`it carries ${unsafe.join(', ')}`);
  if (inspection.warnings.length > 0 && reading.urls === 'refuse')
    return refusedUrl(
      `inspectUrl warns about it (${inspection.warnings.map((warning) => warning.code).join(', ')})`,
    );
  const warnings = inspection.warnings.map((warning) => `Careful: ${warning.message}`).join('\n');
  const text = attributed(reading.asker, message, warnings === '' ? undefined : warnings);
  const hostId = randomUUID();
  const upstreamId = typeof params.elicitationId === 'string' ? params.elicitationId : '';
  return {
    mode: 'url',
    item: input.url(text, inspection.href, { elicitationId: hostId }),
    secret: false,
    // As Parley's server sends a URL question on 2026-07-28: without an id (no completion follows).
    relayed: { params: { mode: 'url', message: text, url: inspection.href } },
    ...(upstreamId !== '' && { elicitation: { host: hostId, upstream: upstreamId } }),
    answer: (outcome) => ({
      result: { action: (outcome as { action: 'accept' | 'decline' | 'cancel' }).action },
    }),
  };
}

/** The message the person reads: who asks, then what the upstream said (and its form's description). */
function attributed(asker: string, message: string, more: string | undefined): string {
  const said = message.trim() === '' ? '(no message)' : message;
  return `${asker} asks: ${said}${more === undefined || more === '' ? '' : `\n\n${more}`}`;
}

/** The answer's content with each secret's text in it: it goes to the upstream that asked, only. */
function revealed(value: unknown): { [key: string]: Json } {
  const content: { [key: string]: Json } = {};
  for (const [name, field] of Object.entries(isRecord(value) ? value : {}))
    content[name] = isSecret(field) ? field.reveal() : (field as Json);
  return content;
}

function cannotShow(reading: Reading, reason: string): ReadQuestion {
  return {
    mode: 'form',
    refused: reading.live
      ? { error: { code: -32602, message: `The gateway cannot show this question: ${reason}` } }
      : { result: { action: 'cancel' } },
    reason,
  };
}

function refusedUrl(reason: string): ReadQuestion {
  return {
    mode: 'url',
    refused: { result: { action: 'decline' } },
    reason: `the link was not passed on: ${reason}`,
  };
}

/** The upstream asked for something the host (and so the gateway) did not declare. */
function undeclared(reading: Reading, mode: 'sampling' | 'roots', method: string): ReadQuestion {
  if (!reading.live)
    throw new ToolError(
      `The upstream ${reading.upstream} asked for ${method}, which this host did not declare (the gateway told it so); the call was stopped.`,
    );
  return {
    mode,
    refused: { error: { code: -32601, message: `This client does not support ${method}` } },
    reason: `the host did not declare ${mode}`,
  };
}
