import { createHash } from 'node:crypto';
import type { AskItem } from '../ask/ask-item.js';
import { newResumeToken, type ParkedCallKey } from '../pages/parked-calls.js';
import type { QuestionPages } from '../pages/question-pages.js';
import type { CallRequest } from '../request/call-request.js';
import type { RoundState } from '../state/round-state.js';
import { STATE_REFUSAL_EXPLANATIONS } from '../state/state-codec.js';
import type { CallBinding } from './call-binding.js';
import { type ParkedOutcome, parkedOutcome } from './parked.js';

/**
 * How an anonymous 2026-07-28 caller's parked call is found again (a user's by the user, a 2025
 * caller's by its session, a stdio caller's by its process).
 */
export interface AnonymousFinder {
  /**
   * The resume token its request carried back, when that resumed a parked call (a new one is made
   * when the call parks).
   */
  readonly resume?: string | undefined;
  /**
   * Its address, when the author lets such calls park by address (`questionPages.anonymousByAddress`)
   * and its client carries no resume token back.
   */
  readonly address?: string | undefined;
}

const NOT_ANONYMOUS: AnonymousFinder = {};

/**
 * The store key of a call: its binding bytes (server, method, target, arguments, user) and its
 * caller; `undefined` for an anonymous 2026-07-28 caller with no resume token, which nothing tells
 * apart from another (an address is shared by a NAT, a proxy, an IPv6 /64, or every caller of an
 * endpoint given no address).
 */
export function parkingKey(
  binding: Uint8Array,
  request: CallRequest,
  finder: AnonymousFinder = NOT_ANONYMOUS,
): ParkedCallKey | undefined {
  const session = request.session;
  const scope = request.user
    ? `user:${request.user.id}`
    : request.transport === 'stdio'
      ? 'stdio'
      : session !== undefined
        ? `session:${session}`
        : finder.resume !== undefined
          ? `resume:${finder.resume}`
          : finder.address !== undefined
            ? `address:${finder.address}`
            : undefined;
  return scope === undefined ? undefined : { scope, binding };
}

/** Whether a caller's parked call is found again by a resume token (an anonymous 2026-07-28 caller). */
function needsToken(request: CallRequest, finder: AnonymousFinder): boolean {
  return (
    !request.user &&
    request.transport === 'http' &&
    request.session === undefined &&
    finder.address === undefined
  );
}

/** A link as a parked call remembers it was shown: a digest (the link itself is a capability). */
function linkDigest(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

/**
 * Parks a call at questions answered by links (a client that cannot be asked in-band): its state
 * is sealed like a `requestState`, bound to the call, and kept as long as a page lives, so the same
 * call made again goes on from here. Returns what the call answers with now.
 */
export async function parkCall(
  request: CallRequest,
  pages: QuestionPages,
  binding: CallBinding,
  parked: {
    readonly state: RoundState;
    readonly items: readonly AskItem[];
    readonly formsFailed: boolean;
    readonly urlFailed: boolean;
    /** Digests of the links this call's results carried before (it was resumed by address). */
    readonly shown?: readonly string[] | undefined;
  },
  finder: AnonymousFinder = NOT_ANONYMOUS,
): Promise<ParkedOutcome> {
  const codec = await request.app.codec();
  const bytes = binding.bytes();
  const state = await codec.seal(parked.state, bytes, pages.parkedTtlSeconds);
  const { formsFailed, urlFailed } = parked;
  const resume = needsToken(request, finder) ? (finder.resume ?? newResumeToken()) : undefined;
  const key = parkingKey(bytes, request, { resume, address: finder.address });
  // The ladder refuses a link for a caller that cannot be found again (routeForm); this is the backstop.
  if (!key) throw new Error('A call of an anonymous caller with no resume token cannot be parked.');
  // Parked by address, a call may be resumed by another caller at that address: a link it was given
  // is never given again while its page waits, only the links of pages opened since.
  const withheld = new Set(finder.address === undefined ? [] : (parked.shown ?? []));
  const outcome = parkedOutcome(parked.items, pages.asker, binding.facts, {
    resume,
    withheld: (url) => withheld.has(linkDigest(url)),
  });
  const shown =
    finder.address === undefined
      ? undefined
      : [...new Set([...withheld, ...outcome.links.map((link) => linkDigest(link.url))])];
  await pages.park(key, { state, formsFailed, urlFailed, ...(shown && { shown }) });
  return outcome;
}

/**
 * The state of this call if it was parked (once: it is taken out of the store), else `undefined`.
 * A parked state that does not open is logged and the call starts afresh.
 */
export async function resumeParked(
  request: CallRequest,
  pages: QuestionPages,
  binding: CallBinding,
  finder: AnonymousFinder = NOT_ANONYMOUS,
): Promise<
  | {
      readonly state: RoundState;
      readonly formsFailed: boolean;
      readonly urlFailed: boolean;
      readonly shown?: readonly string[];
    }
  | undefined
> {
  const bytes = binding.bytes();
  const key = parkingKey(bytes, request, finder);
  const parked = key && (await pages.unpark(key));
  if (!parked) return undefined;
  const { app } = request;
  const codec = await app.codec();
  const opened = await codec.open(parked.state, bytes, pages.parkedTtlSeconds);
  if (opened.ok) {
    const { formsFailed, urlFailed, shown } = parked;
    return { state: opened.state, formsFailed, urlFailed, ...(shown && { shown }) };
  }
  app.log(
    'warn',
    `A parked ${binding.facts.method} ${JSON.stringify(binding.facts.target)} did not open (${STATE_REFUSAL_EXPLANATIONS[opened.reason]}); it starts afresh.`,
    { reason: opened.reason },
  );
  return undefined;
}
