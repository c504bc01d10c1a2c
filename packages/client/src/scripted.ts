import type { CreateMessageRequestParams, CreateMessageResult, Root } from '@modelcontextprotocol/client';
import type { UrlInspection } from '@parley/core/url';
import { describeCall, ParleyError } from './errors.js';
import { describeQuestion } from './question.js';
import { samplingView } from './sampling-view.js';
import { samplingAnswerOf, scriptsSampling } from './scripted-sampling.js';
import type {
  AskContext,
  CallInfo,
  ElicitationUI,
  ElicitResult,
  FormRequest,
  SamplingDecline,
  ServerIdentity,
  UrlConsent,
  UrlRequest,
} from './types.js';

/**
 * One scripted answer:
 * - `{ action: 'accept', content }`, `{ action: 'decline' }`, `{ action: 'cancel' }`; for a URL
 *   question `accept` may add `wait: 'cancel'` to cancel while the server checks (default
 *   `'finished'`);
 * - a plain object: accept with that content (an object whose only keys are `action`, `content`
 *   and `wait`, with a valid action, is read as the form above);
 * - a function `(request, context) => answer`, for answers that depend on the question;
 * - for a sampling request (keyed or in order, never from a function): a `CreateMessageResult`
 *   (`{ role: 'assistant', content: { type: 'text', text }, model }`) or `{ action: 'decline' }`.
 */
export type ScriptedAnswer =
  | ElicitResult
  | (UrlConsent & { readonly wait?: 'finished' | 'cancel' })
  | Readonly<Record<string, unknown>>
  | ((request: FormRequest | UrlRequest, context: AskContext) => ScriptedAnswer | Promise<ScriptedAnswer>);

/**
 * Answers in order (an array), or keyed by question: the `inputRequests` key (or Parley's handshake
 * `_meta` key), falling back to the message text. A keyed value is one answer (used every time the
 * question comes) or an array (used in order). A function answers every question; returning
 * `undefined` leaves a question unanswered.
 */
export type ScriptedAnswers =
  | readonly ScriptedAnswer[]
  | Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>
  | ((
      request: FormRequest | UrlRequest,
      context: AskContext,
    ) => ScriptedAnswer | undefined | Promise<ScriptedAnswer | undefined>);

/** One question a scripted UI was asked, and what it answered. */
export interface AskRecord {
  readonly mode: 'form' | 'url' | 'sampling';
  /** The question's message; for a sampling request, the text of its messages. */
  readonly message: string;
  readonly key?: string;
  readonly server: ServerIdentity;
  readonly call: CallInfo;
  readonly round: number;
  readonly position: { readonly index: number; readonly of: number };
  readonly era: 'modern' | 'handshake';
  readonly requestedSchema?: FormRequest['requestedSchema'];
  /** The form's root title, when the server sent one. */
  readonly title?: string;
  readonly url?: string;
  readonly inspection?: UrlInspection;
  /** The sampling request as the server sent it. */
  readonly sampling?: CreateMessageRequestParams;
  /** `refused`: the URL was not allowed, so the client declined without asking. */
  readonly answer: ElicitResult | UrlConsent | CreateMessageResult | SamplingDecline | 'refused';
}

/** What the scripted UI declares to the server, besides its answers. */
export interface ScriptedOptions {
  /** What the scripted host claims to show. Default: forms and URLs. */
  modes?: { form: boolean; url: boolean };
  /**
   * Whether to declare `sampling`. Default: only when the keyed or ordered answers script a
   * sampling reply (a `CreateMessageResult`). Set it to script only declines.
   */
  sampling?: boolean;
  /** Declares `roots` and lists these. Default: roots are not declared. */
  roots?: readonly Root[];
  /**
   * Plays the person on a Parley server's question pages: a URL question that opens one is answered
   * on the page with the scripted answer (the page's form, or decline / cancel), then consented to.
   */
  person?: { answer(url: string, answer: ElicitResult): Promise<boolean> };
}

/** A link a result points the person to (a page of the server), with the question's key. */
export interface PageLink {
  readonly key?: string;
  readonly url: string;
  readonly message: string;
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);
const RESULT_KEYS = new Set(['action', 'content', 'wait']);

/**
 * An `ElicitationUI` that answers from a list, for tests, scripts and CI. A question without an
 * answer fails the call with a clear `unanswered` error naming it; it never waits. `asked` records
 * every question in order. It declares `sampling` only when the answers script a sampling reply
 * (or `options.sampling` says so), and never `roots`.
 *
 * @example
 * const ui = scripted({ party: { guests: 2 }, confirm: { action: 'decline' } });
 * const client = await connect('node server.js', { ui });
 * await client.callTool('book_table');
 * console.log(ui.asked.map((question) => question.message));
 */
export function scripted(
  answers: ScriptedAnswers,
  options: ScriptedOptions = {},
): ElicitationUI & {
  readonly asked: readonly AskRecord[];
  /** The scripted answer to a question with this key or message, as `next` would pick it. */
  answerFor(link: PageLink, server: ServerIdentity, call: CallInfo): Promise<ElicitResult>;
} {
  const asked: AskRecord[] = [];
  const answerAll = typeof answers === 'function' ? answers : undefined;
  const ordered = Array.isArray(answers) ? [...answers] : undefined;
  const keyed = Array.isArray(answers) || answerAll ? undefined : (answers as Record<string, unknown>);
  const used = new Map<string, number>();
  const waits = new WeakMap<UrlRequest, 'finished' | 'cancel'>();

  const next = async (
    request: FormRequest | UrlRequest,
    context: AskContext,
  ): Promise<Record<string, unknown>> => {
    let answer: unknown = answerAll
      ? answerAll
      : ordered
        ? ordered.shift()
        : pick(keyed!, used, context.key, request.message);
    while (typeof answer === 'function') answer = await answer(request, context);
    if (answer === undefined) throw unanswered(request, context);
    return normalize(answer);
  };

  const record = (
    mode: AskRecord['mode'],
    message: string,
    context: AskContext,
    extra: Partial<AskRecord>,
  ) => {
    asked.push({
      mode,
      message,
      ...(context.key !== undefined && { key: context.key }),
      server: context.server,
      call: context.call,
      round: context.round,
      position: context.position,
      era: context.era,
      ...extra,
    } as AskRecord);
  };

  const declaresSampling = options.sampling ?? (answerAll === undefined && scriptsSampling(answers));
  const sampling = async (
    request: CreateMessageRequestParams,
    context: AskContext,
  ): Promise<CreateMessageResult | SamplingDecline> => {
    const message = samplingView(request)
      .messages.flatMap((entry) => entry.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])))
      .join('\n');
    const scripted = ordered ? ordered.shift() : keyed ? pick(keyed, used, context.key, message) : undefined;
    const answer = samplingAnswerOf(scripted);
    if (answer === undefined) {
      throw new ParleyError(
        scripted === undefined ? 'unanswered' : 'invalid-answer',
        `${scripted === undefined ? 'No scripted answer' : 'The scripted answer is not a sampling answer'} for the sampling request ${describeQuestion(context.key, message)} from ${context.server.name} during ${describeCall(context.call)} (round ${context.round}); script a CreateMessageResult ({ role: 'assistant', content: { type: 'text', text }, model }) or { action: 'decline' } keyed by ${JSON.stringify(context.key ?? message)}`,
        { server: context.server.name, call: context.call },
      );
    }
    record('sampling', message, context, { sampling: request, answer });
    return answer;
  };

  const roots = options.roots;
  return {
    modes: options.modes ?? { form: true, url: true },
    asked,
    ...(declaresSampling && { sampling }),
    ...(roots && { roots: async () => ({ roots: [...roots] }) }),
    async answerFor(link, server, call) {
      const request = { message: link.message, url: link.url };
      const context: AskContext = {
        server,
        call,
        callId: 0,
        round: 1,
        ...(link.key !== undefined && { key: link.key }),
        position: { index: 1, of: 1 },
        era: 'modern',
        signal: new AbortController().signal,
      };
      return (await next(request, context)) as ElicitResult;
    },
    async form(request, context) {
      const answer = (await next(request, context)) as ElicitResult;
      record('form', request.message, context, {
        requestedSchema: request.requestedSchema,
        ...(request.title !== undefined && { title: request.title }),
        answer,
      });
      return answer;
    },
    async url(request, inspection, context) {
      if (!inspection.allowed) {
        record('url', request.message, context, { url: request.url, inspection, answer: 'refused' });
        return { action: 'decline' };
      }
      const answer = await next(request, context);
      if (options.person && (await options.person.answer(request.url, answer as ElicitResult))) {
        // A question page: the person answered the question itself there, and agreed to open it.
        record('url', request.message, context, {
          url: request.url,
          inspection,
          answer: answer as ElicitResult,
        });
        return { action: 'accept' };
      }
      const consent = { action: answer.action } as UrlConsent;
      if (answer.wait === 'cancel' || answer.wait === 'finished') waits.set(request, answer.wait);
      record('url', request.message, context, { url: request.url, inspection, answer: consent });
      return consent;
    },
    async waitForUrl(request) {
      return waits.get(request) ?? 'finished';
    },
  };
}

function pick(
  keyed: Record<string, unknown>,
  used: Map<string, number>,
  key: string | undefined,
  message: string,
): unknown {
  const name =
    key !== undefined && Object.hasOwn(keyed, key)
      ? key
      : Object.hasOwn(keyed, message)
        ? message
        : undefined;
  if (name === undefined) return undefined;
  const value = keyed[name];
  if (!Array.isArray(value)) return value;
  const index = used.get(name) ?? 0;
  used.set(name, index + 1);
  return value[index];
}

/** Reads an answer: an action object as it is, any other object as accepted content. */
function normalize(answer: unknown): Record<string, unknown> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw new ParleyError(
      'invalid-answer',
      `A scripted answer must be an object or a function; got ${JSON.stringify(answer)}`,
    );
  }
  const record = answer as Record<string, unknown>;
  const isAction =
    ACTIONS.has(record.action as string) && Object.keys(record).every((key) => RESULT_KEYS.has(key));
  if (isAction) return record;
  return { action: 'accept', content: record };
}

function unanswered(request: FormRequest | UrlRequest, context: AskContext): ParleyError {
  const label = context.key ?? request.message;
  return new ParleyError(
    'unanswered',
    `No scripted answer for the question ${describeQuestion(context.key, request.message)} from ${context.server.name} during ${describeCall(context.call)} (round ${context.round}); add an answer keyed by ${JSON.stringify(label)}`,
    { server: context.server.name, call: context.call },
  );
}
