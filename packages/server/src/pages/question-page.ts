import { timingSafeEqual } from 'node:crypto';
import { isRecord, parseContent } from '@parley/core/form';
import { readCappedBody } from '@parley/core/node';
import type { KeyRing } from '@parley/core/seal';
import type { FlowActions, FlowPage } from '../flows/flow-kit.js';
import type { FlowRecord } from '../flows/flow-types.js';
import type { Logger } from '../log.js';
import { type PageServer, pageJson, questionDocument, serverLabel } from './page-document.js';
import type { PageAnswer, QuestionFlowData } from './page-types.js';
import { sealAnswer } from './sealed-answers.js';

/** What the question page needs of the server that serves it. */
export interface QuestionPageDeps {
  readonly server: PageServer;
  readonly log: Logger;
  readonly ring: () => Promise<KeyRing>;
  /**
   * Settles the page with an answer that holds a secret, keeping its sealed content until
   * `expiresAt`, only when this answer wins (of racing submits, the one kept is the one that counts).
   */
  readonly settleSealed: (
    pageId: string,
    settled: PageAnswer,
    token: string,
    expiresAt: number,
  ) => Promise<boolean>;
  /** How long a sealed answer is kept past its page's expiry (the call may go on for as long as a round's state lives). */
  readonly sealedGraceMs: number;
  /** This page's URL, and where its assets are served. */
  readonly urlFor: (id: string) => string;
  readonly assetsBase: () => string;
  /** Origins a same-site POST may come from (the public one, and the one the request reached). */
  readonly publicOrigin: () => string;
}

/** Largest answer a page accepts, in bytes of JSON (an answered page keeps it until its call reads it). */
const MAX_ANSWER_BYTES = 16 * 1024;
const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** The page of every question: GET shows it (the script renders the form), POST takes the answer. */
export function questionPage(deps: QuestionPageDeps): FlowPage {
  return async (request, flow, actions) => {
    const data = flow.data as unknown as QuestionFlowData;
    if (request.method === 'GET' || request.method === 'HEAD') {
      return questionDocument(
        {
          v: 1,
          server: deps.server,
          call: data.call,
          message: data.message,
          requestedSchema: data.schema,
          secretFields: data.secretFields,
          ...(data.confirm && { confirm: true }),
          csrf: data.csrf,
          expiresAt: flow.expiresAt,
          answerUrl: deps.urlFor(flow.id),
          after: data.after,
        },
        deps.assetsBase(),
      );
    }
    if (request.method !== 'POST')
      return pageJson(405, { ok: false, message: 'Use GET to see the question and POST to answer it.' });
    return answer(deps, request, flow, data, actions);
  };
}

async function answer(
  deps: QuestionPageDeps,
  request: Request,
  flow: FlowRecord,
  data: QuestionFlowData,
  actions: FlowActions,
): Promise<Response> {
  const refusal = crossSiteRefusal(request, deps.publicOrigin());
  if (refusal) return refusal;
  const read = await readCappedBody(
    request.body as AsyncIterable<Uint8Array> | null,
    MAX_ANSWER_BYTES,
    request.headers.get('content-length'),
  );
  if (!read.ok)
    return pageJson(read.reason === 'too-large' ? 413 : 400, { ok: false, message: read.message });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch {
    return pageJson(400, { ok: false, message: 'The answer is not JSON.' });
  }
  if (!isRecord(body) || typeof body.action !== 'string' || !ACTIONS.has(body.action))
    return pageJson(400, { ok: false, message: 'The answer needs an action: accept, decline or cancel.' });
  if (typeof body.csrf !== 'string' || !sameText(body.csrf, data.csrf)) {
    deps.log('warn', 'Refused a question page answer: its anti-forgery token did not match.', {
      page: `${flow.id.slice(0, 6)}…`,
    });
    return pageJson(403, {
      ok: false,
      message:
        'This answer did not come from the page it belongs to, so nothing was recorded. Reload the page.',
    });
  }

  const who = serverLabel(deps.server);
  const binding = data.binding !== undefined ? { binding: data.binding } : {};
  let settled: PageAnswer;
  let recorded: boolean;
  if (body.action === 'accept') {
    const parsed = parseContent(data.schema, body.content ?? {});
    if (!parsed.ok)
      return pageJson(422, { ok: false, message: 'Some answers need attention.', errors: parsed.errors });
    const content = parsed.value as Record<string, unknown>;
    if (data.secretFields.length > 0) {
      const token = await sealAnswer(await deps.ring(), deps.server.name, flow.id, content);
      settled = { action: 'accept', sealed: true, ...binding };
      recorded = await deps.settleSealed(flow.id, settled, token, flow.expiresAt + deps.sealedGraceMs);
    } else {
      settled = { action: 'accept', content, ...binding };
      recorded = await actions.complete(settled as never);
    }
  } else {
    settled = { action: body.action as 'decline' | 'cancel', ...binding };
    recorded = await actions.complete(settled as never);
  }
  if (!recorded)
    return pageJson(410, { ok: false, message: 'This question was already answered or has expired.' });
  return pageJson(200, { ok: true, message: afterText(who, settled.action, data) });
}

/** What the person reads once the answer is in: what their app needs of them now. */
function afterText(who: string, action: PageAnswer['action'], data: QuestionFlowData): string {
  const back =
    data.after !== 'url'
      ? 'Go back to your app and ask it to make the same request again: it goes on from here.'
      : data.sayFinished === true
        ? 'Go back to your app and tell it you have finished (in the Parley lab: "I\'ve finished"): it goes on from there.'
        : 'Go back to your app: it goes on by itself.';
  if (action === 'accept') return `Your answer reached ${who}. ${back} You can close this tab.`;
  const what = action === 'decline' ? 'You declined' : 'You cancelled';
  return `${what}; ${who} was told. ${back} You can close this tab.`;
}

/**
 * A browser's POST from another site is refused: the body must be JSON (a cross-site form cannot
 * send that without a preflight this server never allows), and the `Origin` (or `Sec-Fetch-Site`)
 * the browser sets must say this site.
 */
function crossSiteRefusal(request: Request, publicOrigin: string): Response | undefined {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return pageJson(415, { ok: false, message: 'Send the answer as application/json.' });
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  const allowed = new Set([publicOrigin, new URL(request.url).origin]);
  if ((origin !== null && !allowed.has(origin)) || (site !== null && site !== 'same-origin')) {
    return pageJson(403, {
      ok: false,
      message: 'Answers are taken only from the question page itself, so nothing was recorded.',
    });
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
