import { createHash } from 'node:crypto';
import type { PreparedQuestion } from '@parley/core/form';
import type { AskItem } from '../ask/ask-item.js';
import type { CallHost } from '../ask/call-host.js';
import type { CallSecrets } from '../ask/call-secrets.js';
import { fingerprint } from '../ask/fingerprint.js';
import { modeFailedFor } from '../ask/forms-failed.js';
import type { PageItem } from '../ask/kinds/page.js';
import type { FormRoute, RouteFacts } from '../ask/route.js';
import type { PageCall } from '../pages/page-types.js';
import type { QuestionPages } from '../pages/question-pages.js';
import { bindingBytes, type StateBinding } from '../state/binding.js';
import type { Json } from '../state/round-state.js';
import type { Principal } from '../types.js';

/** The call a context serves: what question pages show, and what a confirmation with proof binds to. */
export type CallFacts = Pick<StateBinding, 'method' | 'target' | 'args'>;

/** What opening a page for a question needs of the call. */
export interface PageCallFacts {
  /** `modern` (2026-07-28) or `handshake` (2025): what the host does after a page (see `sayFinished`). */
  readonly era: 'modern' | 'handshake';
  readonly pages: QuestionPages | undefined;
  readonly call: CallFacts;
  readonly user: Principal | undefined;
  readonly secrets: CallSecrets;
  readonly transport: 'stdio' | 'http';
  readonly protocolVersion: string;
  readonly clientCapabilities: unknown;
  readonly anonymousScope?: string | undefined;
  /** The call's client, when a host profile knows it. */
  readonly host?: CallHost | undefined;
  /**
   * `false` for an anonymous 2026-07-28 call whose client carries no resume token back: a call
   * parked now could not be told from another caller's. Default true (a user, stdio, a 2025 session).
   */
  readonly resumable?: boolean;
}

/** The facts the ladder decides a form question's route with. */
export function routeFacts(facts: PageCallFacts, can: (mode: 'form' | 'url') => boolean): RouteFacts {
  return {
    can,
    protocolVersion: facts.protocolVersion,
    formsFailed: modeFailedFor('form', facts.clientCapabilities),
    urlFailed: modeFailedFor('url', facts.clientCapabilities),
    pages: facts.pages,
    transport: facts.transport,
    user: facts.user,
    anonymousScope: facts.anonymousScope,
    host: facts.host,
    resumable: facts.resumable ?? true,
  };
}

const SURFACE: Readonly<Record<CallFacts['method'], PageCall['kind']>> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};

/** The journal name of the page opened for the question under `key`. */
function pageOnceName(key: string): string {
  return `page:${key}`;
}

/**
 * Where a replayed question was asked the first time: on a page when the journal opens its page
 * next, in-band when the journal replays anything else, `undefined` past the journal.
 */
export function replayedRoute(
  engine: { upNext?(): number | undefined },
  key: string,
): 'page' | 'inband' | undefined {
  const next = engine.upNext?.();
  if (next === undefined) return undefined;
  return next === fingerprint('once', pageOnceName(key)) ? 'page' : 'inband';
}

/** Opens pages once per logical call (the page's id is journaled), in the order the handler asks. */
export interface PageOpener {
  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T>;
}

/**
 * The item of a form question asked on a page of the server: the page is opened the first time
 * (its id journaled under `page:<key>`, so every later round, and a resumed call, points at it).
 */
export async function pageItem(
  facts: PageCallFacts,
  engine: PageOpener,
  key: string,
  entry: { readonly message: string; readonly question: PreparedQuestion<unknown> },
  route: Extract<FormRoute, { kind: 'page' }>,
  confirmation: { readonly confirm: boolean; readonly proof: boolean },
): Promise<AskItem> {
  const pages = facts.pages!;
  const binding = confirmation.proof ? callDigest(pages.serverName, facts.call, facts.user) : undefined;
  const id = await engine.once(pageOnceName(key), async () => {
    const opened = await pages.open({
      message: entry.message,
      question: entry.question,
      call: { kind: SURFACE[facts.call.method], name: facts.call.target },
      who: route.who,
      confirm: confirmation.confirm,
      after: route.route === 'url' ? 'url' : 'retry',
      sayFinished: route.route === 'url' && facts.era === 'modern',
      ...(binding !== undefined && { binding }),
    });
    return opened.id;
  });
  const item: PageItem = {
    kind: 'page',
    key,
    message: entry.message,
    question: entry.question,
    route: route.route,
    page: id,
    url: pages.urlFor(id),
    principal: route.who.principal,
    pages,
    secrets: facts.secrets,
    asker: pages.asker,
    ...(binding !== undefined && { binding }),
  };
  return item;
}

/** A digest of the call a confirmation with proof counts for: server, tool, arguments and user. */
function callDigest(server: string, call: CallFacts, user: Principal | undefined): string {
  const bytes = bindingBytes({ server, ...call, principal: user?.id });
  return createHash('sha256').update(bytes).digest('base64url');
}
