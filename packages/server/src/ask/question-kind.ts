import type { InputRequest, RequestMethod, StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { FlowCheck, FlowKit } from '../flows/flow-kit.js';
import type { Json } from '../state/round-state.js';

/**
 * One question inside an ask point, with the key it travels under. Each kind adds its own fields
 * (a form its question, a URL its address); `message`, when there is one, is what the person reads.
 */
export type AskItem = {
  readonly kind: string;
  readonly key: string;
  readonly message?: string;
  readonly [field: string]: unknown;
};

/** What a handler receives for one item (a kind decides its shape). */
export type ItemResult = unknown;

/** What one reply means for its item. */
export type CheckedReply =
  | { readonly status: 'ok'; readonly result: ItemResult }
  /** The person's answer does not fit the question: ask again with `reason`. */
  | { readonly status: 'invalid'; readonly reason: string }
  /** The client sent something that is not a reply of this kind at all: a protocol error. */
  | { readonly status: 'malformed'; readonly problem: string };

/** A request the server sends the client over a 2025-era session. */
export interface SessionRequest {
  readonly method: RequestMethod;
  readonly params: Record<string, unknown>;
  /**
   * How the SDK checks the answer before the kind's own check sees it; default: the SDK's schema
   * for the method's result (which ends the call with an internal error on an answer that fails it).
   */
  readonly resultSchema?: StandardSchemaV1;
}

/** Where the person answers an item out of band, and what they are asked there. */
export interface OutOfBandLink {
  readonly url: string;
  readonly message: string;
}

/** A URL item backed by a flow of this server: its completion is checked on the server. */
export interface FlowRef {
  readonly id: string;
  readonly kit: FlowKit;
  readonly principal: string;
}

/**
 * How an era learns whether a flow the person consented to has finished: the 2026-07-28 era looks
 * once (a pending flow is asked again next round), the handshake era waits on the session.
 */
export type FlowWatch = (flow: FlowRef) => Promise<FlowCheck>;

/**
 * One kind of question a handler can ask (form, url, sampling, roots, ...): everything the server
 * knows about it lives in this one entry, and nothing else in the server looks at `item.kind`.
 */
export interface QuestionKind<I extends AskItem = AskItem> {
  /** The `kind` of its items and of the `input.*` entries that build them. */
  readonly name: string;
  /** What the client must have declared to be asked this kind. */
  readonly capability: {
    /** `data.requiredCapabilities` of the -32021 error when the client did not declare it. */
    readonly required: Record<string, unknown>;
    /** Whether a client with these capabilities, on this protocol revision, can be asked this kind. */
    declared(clientCapabilities: unknown, protocolVersion: string): boolean;
    /** What the handler's author can do instead (the end of the ElicitationUnavailable message). */
    readonly steer: string;
  };
  /** Builds the item from a `ctx.elicitAll` entry (`{ kind, ...fields }`) under `key`. */
  item(key: string, entry: Readonly<Record<string, unknown>>): I;
  /**
   * What identifies the question for replay: a handler that asks something else at the same point
   * on a later round diverges. Changing it invalidates the states of calls in flight.
   */
  fingerprintText(item: I): string;
  /** The wire request per era; `message` is the item's message, or the re-ask text after an invalid answer. */
  readonly request: {
    /** 2026-07-28: the `inputRequests` entry. */
    modern(item: I, message: string): InputRequest;
    /** 2025 eras: the request sent over the session (`protocolVersion` is the negotiated one). */
    handshake(item: I, message: string, protocolVersion: string): SessionRequest;
  };
  /** What a reply of this kind is, for the -32602 text ("the answer for 'q1' is not ..."). */
  readonly expected: string;
  /** Reads a reply; `malformed` is answered -32602, `invalid` asked again with the reason. */
  check(item: I, reply: unknown): CheckedReply;
  /**
   * 2025 eras: what a JSON-RPC error the client answered the request with means for the handler,
   * when it is the person's refusal (sampling's `-1`); `undefined` keeps the error as it is.
   */
  refusal?(error: unknown): Error | undefined;
  /**
   * What a valid reply still waits for on the server (a URL flow's page), if anything: the result
   * the handler gets, or `undefined` while it is not settled yet.
   */
  settle?(item: I, result: ItemResult, watch: FlowWatch): Promise<ItemResult | undefined>;
  /**
   * The link that answers the item out of band, when it is answered so: by a link in the call's
   * result, never sent to the client. An engine does not send such an item; it settles it as if the
   * person had agreed to open the link (a page answered by now gives its answer) and, while it is
   * not answered, parks the call with the link in its result.
   */
  outOfBand?(item: I): OutOfBandLink | undefined;
  /** The result as it is journaled in the sealed state (short: it travels on every round). */
  encode(item: I, result: ItemResult): Json;
  /** Reads a journaled result back; a kind whose result lives on the server may read it there. */
  decode(item: I, encoded: Json): ItemResult | Promise<ItemResult>;
}
