import type { BalancedReply } from '../lb/channel.js';
import type { HttpCall } from '../lb/send.js';
import { unclearReason } from '../mcp/outcome.js';

/** A flow whose requests a line carries: the replica that holds its upstream call, once known. */
export interface HeldFlow {
  readonly id: number;
  /** The balancer address of the replica its call is held on (the one that served the call's first round). */
  holder: string | undefined;
  /** When the reply that made `holder` the holder arrived. */
  heldAt: number | undefined;
  /** Requests it sent again after an unclear failure. */
  resent: number;
}

/** What a request of a flow is, read from its body. */
export type RequestKind = 'begin' | 'round' | 'other';

/** One reply, as the run observes it. */
export interface LineReply {
  readonly flow: HeldFlow | undefined;
  readonly kind: RequestKind | 'padding';
  readonly reply: BalancedReply;
  /** The flow's holder when the request went out (for a round: whom it was for). */
  readonly holder: string | undefined;
  readonly unclear: string | undefined;
}

/** How a line carries the requests of the flows' clients to the balancer. */
export interface RequestLine {
  /** The fetch a flow's client uses. */
  fetchFor(flow: HeldFlow): typeof fetch;
  readonly stats: { readonly resent: number; readonly gaveUp: number; readonly lostReplies: number };
}

/** What both lines do about resending and lost replies. */
export interface LineOptions {
  /** Unclear failures of one request before its client is given the failure. Default 8. */
  readonly maxResends?: number;
  /**
   * Every how many answers to a held call the reply is thrown away as if lost on the way back, so
   * the answer is sent again: the replica holding the call must give the copy the same step. 0: never.
   */
  readonly loseReplyEvery?: number;
  readonly onReply?: (event: LineReply) => void;
}

/** What to do with one reply: send the request again after a pause, or give the client its response. */
export type Taken =
  | { readonly unclear: string; readonly resendAfterMs: number }
  | { readonly unclear: string | undefined; readonly response: Response };

/**
 * Takes the replies of one line: decides which are unclear (and throws every so often an answer's
 * reply away as lost), tells the observer, counts resends, and learns which replica holds each
 * flow's call from the reply to its first round.
 */
export class ReplyTaker {
  readonly #options: LineOptions;
  readonly stats = { resent: 0, gaveUp: 0, lostReplies: 0 };
  #answers = 0;

  constructor(options: LineOptions) {
    this.#options = options;
  }

  /** The reply to the `attempts`-th sending of a request of `kind` of `flow`, whose holder was `holder`. */
  take(
    flow: HeldFlow,
    kind: RequestKind,
    reply: BalancedReply,
    holder: string | undefined,
    attempts: number,
  ): Taken {
    let unclear = unclearReason(reply);
    const loseEvery = this.#options.loseReplyEvery ?? 0;
    if (unclear === undefined && kind === 'round' && loseEvery > 0 && ++this.#answers % loseEvery === 0) {
      unclear = LOST_REPLY;
      this.stats.lostReplies++;
    }
    this.#options.onReply?.({ flow, kind, reply, holder, unclear });
    if (unclear !== undefined && attempts <= (this.#options.maxResends ?? 8)) {
      this.stats.resent++;
      flow.resent++;
      return { unclear, resendAfterMs: backoffMs(attempts) };
    }
    if (unclear !== undefined) this.stats.gaveUp++;
    else if (kind === 'begin' && reply.replica !== undefined) {
      flow.holder = reply.replica;
      flow.heldAt = Date.now();
    }
    return { unclear, response: toResponse(reply) };
  }
}

/** A client's POST as the fleet's HTTP helper sends it; `undefined` for anything else. */
export function callOf(input: string | URL | Request, init?: RequestInit): HttpCall | undefined {
  const body = typeof init?.body === 'string' ? init.body : undefined;
  if ((init?.method ?? 'GET') !== 'POST' || body === undefined) return undefined;
  const url = new URL(String(input instanceof Request ? input.url : input));
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return { method: 'POST', path: `${url.pathname}${url.search}`, headers, body };
}

/** A 2026-07-28 request: the first round of a call, a later round (it carries `requestState`), or else. */
export function kindOf(call: HttpCall): RequestKind {
  try {
    const message = JSON.parse(call.body ?? '') as { method?: unknown; params?: { requestState?: unknown } };
    if (message.method !== 'tools/call') return 'other';
    return typeof message.params?.requestState === 'string' ? 'round' : 'begin';
  } catch {
    return 'other';
  }
}

const RESPONSE_HEADERS_DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** A reply as the client's fetch returns it; no response at all becomes the 502 a balancer would say. */
function toResponse(reply: BalancedReply): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value === undefined || RESPONSE_HEADERS_DROPPED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = reply.status === 0 ? 502 : reply.status;
  const empty = status === 204 || status === 304;
  return new Response(empty ? null : reply.body, { status, headers });
}

/** The pause before sending a request again after its `attempts`-th unclear failure. */
function backoffMs(attempts: number): number {
  return Math.min(1000, 50 * 2 ** Math.min(attempts, 5));
}

/** Why an answer's reply counts as lost, when the run throws it away on purpose. */
const LOST_REPLY = 'the reply was lost on the way back (thrown away by the run)';
