import type { PreparedQuestion, RequestedSchema } from '@parley/core/form';
import type { FlowStore } from '../flows/flow-types.js';

/**
 * The `_meta` key under which a result that waits on question pages lists them (`key`, `url`,
 * `message`), so a host can show each link as it shows a URL question.
 */
export const PAGES_META = 'dev.parley/pages';

/** Options of question pages (`createServer({ questionPages })`). */
export interface QuestionPagesOptions {
  /**
   * The origin (and optional base path) where people's browsers reach this server, e.g.
   * `https://mcp.example.com`. Default: `flows.publicUrl`, else the address `server.listen()` bound,
   * else (stdio, or an endpoint mounted without one) a loopback listener Parley starts when the
   * first page is needed.
   */
  readonly publicUrl?: string;
  /** Path prefix of question pages. Default `/parley/questions`. */
  readonly path?: string;
  /** How long a page link stays valid. Default 900 (15 minutes). */
  readonly ttlSeconds?: number;
  /** Where pages, parked calls and sealed answers live. Default `flows.store`, else this process's memory. */
  readonly store?: FlowStore;
  /**
   * Who is signed in to this server's own site in the browser that sent `request` (e.g. from a
   * session cookie). Default `flows.session`. On a server with users, a page is shown only to the
   * user who made the call.
   */
  readonly person?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Where to send a browser nobody is signed in on. Default `flows.signIn`. */
  readonly signIn?: (returnTo: string) => string;
  /**
   * On HTTP, a call with a verified user but no `person` hook cannot check who opens its page, so
   * Parley does not send one (the question is `ElicitationUnavailable`). Set this to let whoever
   * holds the link answer instead (as on stdio and for anonymous calls). Default false.
   */
  readonly linkHolderMayAnswer?: boolean;
  /**
   * Lets an anonymous 2026-07-28 call whose client neither opens URLs nor carries a resume token back
   * park by its network address (else its question is `ElicitationUnavailable`). Then every caller
   * at that address is one caller to Parley: whoever makes the same call next takes the parked call
   * over, and with it the person's answers (a link is never given twice while its page waits).
   * Behind a NAT, a proxy, an IPv6 /64, or `server.endpoint()` given no `remoteAddress`, that is
   * many people: only for a server whose anonymous callers each have an address of their own (a
   * local tool on loopback for one person). Default false.
   */
  readonly anonymousByAddress?: boolean;
  /** Pages one user may have waiting at once. Default 20. */
  readonly maxPendingPerUser?: number;
  /**
   * Pages one user may hold at once, waiting or answered: an answered page is kept until its link
   * would have expired, plus 15 minutes, so the link reads as used and the call can read the answer.
   * Default 100 (and five times `maxPendingAnonymous` for all anonymous callers together).
   */
  readonly maxKeptPerUser?: number;
  /** Pages all anonymous callers together may have waiting at once. Default 200. */
  readonly maxPendingAnonymous?: number;
  /** Where the loopback listener binds when one is needed (stdio). Default `127.0.0.1`, port 0 (any free). */
  readonly loopback?: { readonly host?: string; readonly port?: number };
}

/**
 * Who may answer a page: the user it is bound to (checked against the browser's signed-in user),
 * or whoever holds the link (`capability`; `principal` is then only the scope its pending cap
 * counts against).
 */
export interface PageWho {
  readonly principal: string;
  readonly capability: boolean;
}

/** The call a page belongs to, as the page shows it. */
export interface PageCall {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
}

/** One question to put on a page. */
export interface PageQuestion {
  readonly message: string;
  readonly question: PreparedQuestion<unknown>;
  readonly call: PageCall;
  readonly who: PageWho;
  /** A yes/no confirmation (the page words its buttons for it). */
  readonly confirm: boolean;
  /**
   * What the person does once they answered: `url`, go back to the app, which waits (a URL-mode
   * question); `retry`, ask the app to make the same request again (a link in a result).
   */
  readonly after: 'url' | 'retry';
  /**
   * URL mode on 2026-07-28: the app learns nothing of the page by itself and goes on only when the
   * person says they have finished (on the 2025 eras the server waits, and the call goes on by itself).
   */
  readonly sayFinished?: boolean;
  /** A digest of the call (tool, arguments, user) a confirmation with proof is bound to. */
  readonly binding?: string;
}

/** What a question page keeps in its flow's data (never an answer, never a secret). */
export interface QuestionFlowData {
  readonly v: 1;
  readonly message: string;
  readonly schema: RequestedSchema;
  readonly secretFields: readonly string[];
  readonly confirm: boolean;
  readonly call: PageCall;
  readonly after: 'url' | 'retry';
  /** See {@link PageQuestion.sayFinished}. */
  readonly sayFinished?: boolean;
  readonly csrf: string;
  readonly binding?: string;
}

/**
 * What a page's flow settles with: the person's action and, for an accepted form without secrets,
 * its content; with secrets, the content is sealed apart (`sealed`) and erased when the call ends.
 * A confirmation with proof carries the digest of the call it was given for (`binding`): the flow's
 * data, where the page read it, is not kept once the page is answered.
 */
export type PageAnswer = (
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, unknown>> }
  | { readonly action: 'accept'; readonly sealed: true }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }
) & { readonly binding?: string };
