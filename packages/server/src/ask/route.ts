import type { PreparedQuestion } from '@parley/core/form';
import { AuthorError, ElicitationUnavailable } from '../errors.js';
import type { PageWho } from '../pages/page-types.js';
import { ANONYMOUS, type QuestionPages } from '../pages/question-pages.js';
import type { Principal } from '../types.js';
import type { CallHost } from './call-host.js';
import { kindOf } from './kind-table.js';
import { fitsRevision, hostRefusal, revisionRefusal } from './kinds/form.js';

/** What decides where a form question goes. */
export interface RouteFacts {
  /** What the client declared on this request. */
  can(mode: 'form' | 'url'): boolean;
  readonly protocolVersion: string;
  /** The client failed `elicitation/create` for a form earlier (2025 eras): forms go to pages. */
  readonly formsFailed: boolean;
  /** The client failed a URL-mode question earlier (2025 eras): pages go by link in the result. */
  readonly urlFailed: boolean;
  /** Question pages, unless the server turned them off. */
  readonly pages: QuestionPages | undefined;
  readonly transport: 'stdio' | 'http';
  readonly user: Principal | undefined;
  /** What an anonymous caller's pages count against: its 2025 session, else every anonymous caller. */
  readonly anonymousScope: string | undefined;
  /** The call's client, when a host profile knows it. */
  readonly host?: CallHost | undefined;
  /**
   * Whether a call parked now is found again by this caller alone (a user, stdio, a 2025 session, a
   * client that carries resume tokens back): else no link goes in a result for it.
   */
  readonly resumable: boolean;
}

/** What the author asked for: where the question may go, and whether it needs proof from the page. */
export interface RouteWish {
  /** `auto` (the ladder), `inband` (only in the client; today's ElicitationUnavailable), `page`. */
  readonly via: 'auto' | 'inband' | 'page';
  /** A confirmation only the page may give (`ctx.confirm(message, { proof: 'page' })`). */
  readonly proof: boolean;
}

/** Where one form question goes: shown by the client, or on a page (by URL mode, or by a link in the result). */
export type FormRoute =
  | { readonly kind: 'inband' }
  | { readonly kind: 'page'; readonly route: 'url' | 'link'; readonly who: PageWho };

const INBAND: FormRoute = { kind: 'inband' };

/**
 * The ladder: in-band when the client shows forms and this one, as its host profile lowers it, can
 * be shown and fits its revision; else a page of the server, through URL mode when the client
 * declared it (and its profile trusts it), else through a link in the call's result. A secret, a
 * confirmation with proof, or `via: 'page'` always go to the page.
 */
export function routeForm(
  question: PreparedQuestion<unknown>,
  facts: RouteFacts,
  wish: RouteWish,
): FormRoute {
  const secret = question.secretFields.length > 0;
  const pageOnly = secret || wish.proof || wish.via === 'page';
  const lowered = facts.host?.form(question);
  const schema = lowered?.ok ? lowered.schema : question.schema;
  const shows = lowered === undefined || lowered.ok;
  if (
    !pageOnly &&
    facts.can('form') &&
    !facts.formsFailed &&
    shows &&
    fitsRevision(schema, facts.protocolVersion)
  )
    return INBAND;
  if (wish.via === 'inband' || !facts.pages) {
    if (secret)
      throw new AuthorError(
        'ask.secret() is answered only on a page of this server, and question pages are off ' +
          '(createServer({ questionPages: false })). Turn them on, or collect the secret with a URL flow of your own.',
      );
    if (wish.proof)
      throw new AuthorError(
        "ctx.confirm(message, { proof: 'page' }) needs question pages, which are off (createServer({ questionPages: false })).",
      );
    if (facts.can('form') && !facts.formsFailed)
      throw facts.host && lowered && !lowered.ok
        ? hostRefusal(facts.host, lowered)
        : revisionRefusal(schema, facts.protocolVersion);
    throw new ElicitationUnavailable('form', kindOf({ kind: 'form' }).capability);
  }
  const route = facts.can('url') && (facts.host?.opensPages(true) ?? true) ? 'url' : 'link';
  if (route === 'link' && !facts.resumable) throw new ElicitationUnavailable('form', ANONYMOUS_LINK);
  return { kind: 'page', route, who: whoAnswers(facts, facts.pages, wish) };
}

/**
 * An anonymous 2026-07-28 client that cannot open URLs nor carry a resume token back: a link in its
 * result would park the call under nothing but its network address, and whoever shares it (a NAT, a
 * proxy, an IPv6 /64, every caller of an endpoint given no address) would take the call over, with
 * the person's answers.
 */
const ANONYMOUS_LINK = {
  required: { elicitation: { url: {} } },
  steer:
    'this client cannot show this form nor open a URL, and for an anonymous caller a link in the result ' +
    'could be picked up by any other caller at the same network address. Use a client that declares URL ' +
    "elicitation, or one that carries resume tokens back (capabilities.extensions['dev.parley/resume'], as " +
    "Parley's client does), or sign in (the server's authenticate). A server whose anonymous callers each " +
    'have an address of their own may set questionPages.anonymousByAddress',
};

/**
 * Who may answer the page. Over HTTP a call with a user gets a page only that user can open (the
 * browser's signed-in person is checked); without a way to check it the page is not sent, unless
 * the author lets the link holder answer. stdio and anonymous calls have no user to check: whoever
 * holds the link answers. A confirmation with proof is never such a link: the client holds every
 * link it is sent, and could open it and accept by itself.
 */
function whoAnswers(facts: RouteFacts, pages: QuestionPages, wish: RouteWish): PageWho {
  const { user } = facts;
  const fix =
    'set questionPages.person and questionPages.signIn (or flows.session and flows.signIn) so the page can check ' +
    'that the person who opens it is the user who asked';
  if (wish.proof) {
    if (user && pages.checksPerson) return { principal: user.id, capability: false };
    throw new AuthorError(
      `A confirmation with proof must be given by the signed-in user: ${
        user
          ? fix
          : facts.transport === 'stdio'
            ? `set stdioUser (the local person) and ${fix}`
            : `this call has no user (authenticate the HTTP endpoint), and ${fix}`
      }. A page anyone with the link may answer is no proof: the client holds the link, and could answer it itself.`,
    );
  }
  if (facts.transport === 'stdio') return { principal: user?.id ?? 'stdio', capability: true };
  if (!user) return { principal: facts.anonymousScope ?? ANONYMOUS, capability: true };
  if (pages.checksPerson) return { principal: user.id, capability: false };
  if (pages.linkHolderMayAnswer) return { principal: user.id, capability: true };
  throw new ElicitationUnavailable('form', {
    required: { elicitation: { form: {} } },
    steer: `this client cannot show this form, and a page of this server cannot be sent for a signed-in user: ${fix}, or set questionPages.linkHolderMayAnswer`,
  });
}
