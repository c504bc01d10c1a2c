import type { BalancedReply } from '../lb/channel.js';
import type { HttpCall } from '../lb/send.js';

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
export function toResponse(reply: BalancedReply): Response {
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
export function backoffMs(attempts: number): number {
  return Math.min(1000, 50 * 2 ** Math.min(attempts, 5));
}

/** Why an answer's reply counts as lost, when the run throws it away on purpose. */
export const LOST_REPLY = 'the reply was lost on the way back (thrown away by the run)';
