import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';
import type { FormContent, RequestedSchema } from '@parley/core/form';
import type { UrlInspection } from '@parley/core/url';

/**
 * The protocol era a connection landed on: `modern` is MCP 2026-07-28 (questions come back inside
 * `input_required` results and the client retries), `handshake` is 2025-06-18 / 2025-11-25 (after
 * `initialize`, the server sends `elicitation/create` requests over the session).
 */
export type Era = 'modern' | 'handshake';

/** Who is asking: the server's self-reported identity (from server info). */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** The call a question belongs to. For resources, `name` is the URI. */
export interface CallInfo {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

/** Everything a host shows around one question, so a person knows who asks, why and when. */
export interface AskContext {
  readonly server: ServerIdentity;
  readonly call: CallInfo;
  /** The call's number on this connection: the same `callId` its `CallEvent`s carry. */
  readonly callId: number;
  /**
   * The 1-based round of this call. On the modern era a round is one `input_required` result; on
   * the handshake era it is the nth question the server asked during the call.
   */
  readonly round: number;
  /**
   * The question's key: the `inputRequests` key on the modern era; on the handshake era the
   * `dev.parley/key` that Parley servers put in `params._meta` (absent for other servers).
   */
  readonly key?: string;
  /** This question's place among the questions that arrived together (1-based `index`). */
  readonly position: { readonly index: number; readonly of: number };
  readonly era: Era;
  /** Aborted when the call ends or is cancelled, or the question times out, while it is shown. */
  readonly signal: AbortSignal;
}

/** A form question: the server's message and the fields it asks for. */
export interface FormRequest {
  readonly message: string;
  /** The form, always within the MCP subset (what a server sent, read liberally: see the README). */
  readonly requestedSchema: RequestedSchema;
  /** The form's root `title`, when the server sent one (pydantic-built forms do): show it. */
  readonly title?: string;
  /** The form's root `description`, when the server sent one. */
  readonly description?: string;
}

/** A URL question: the server wants the person to open a page outside the client. */
export interface UrlRequest {
  readonly message: string;
  readonly url: string;
  /** 2025-11-25 only: the id the server uses to announce the flow finished. */
  readonly elicitationId?: string;
}

/**
 * A person's answer to a form. `accept` carries what they entered; `decline` is an explicit "no";
 * `cancel` means they dismissed the question without choosing.
 */
export type ElicitResult =
  | { readonly action: 'accept'; readonly content?: FormContent | Record<string, unknown> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** A person's answer to a URL question. `accept` means only "I agreed, and the page was opened". */
export type UrlConsent =
  | { readonly action: 'accept' }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * A person's "no" to a sampling request. On the 2025 eras the client answers the server's
 * `sampling/createMessage` with JSON-RPC error `-1` ("User rejected sampling request", as the 2025
 * specs' sampling pages advise), and the call goes on: the server decides what a decline means. On
 * 2026-07-28 a declined sampling request is not answered at all: the client does not retry the
 * call (the 2026-07-28 sampling page: "the client does not need to replay the initial call"), and
 * the call ends with a `ParleyError` of kind `declined`.
 */
export interface SamplingDecline {
  readonly action: 'decline';
}

/**
 * What every host implements to put questions in front of a person. The client hands a host one
 * question at a time, validates what comes back, and keeps the protocol to itself.
 *
 * @example
 * const ui: ElicitationUI = {
 *   modes: { form: true, url: false },
 *   async form(request, context) {
 *     console.log(`${context.server.name} asks: ${request.message}`);
 *     return { action: 'accept', content: { name: 'Ada' } };
 *   },
 *   async url() {
 *     return { action: 'decline' };
 *   },
 * };
 */
export interface ElicitationUI {
  /** What this host can show. The client declares exactly these modes as its capabilities. */
  readonly modes: { readonly form: boolean; readonly url: boolean };
  /**
   * Shows a form. Return `accept` with the content the person entered (fields they left empty may be
   * left out: the client fills declared defaults, as {@link ElicitationUI.defaults} says, and checks
   * the result with `parseContent`).
   */
  form(request: FormRequest, context: AskContext): Promise<ElicitResult>;
  /**
   * Whether `form` shows every field with its `default` already filled in:
   * - `'prefilled'`: it does, so an optional field its answer leaves out was emptied by the person,
   *   and the client sends it empty (a required field left out still gets its default);
   * - `'not-prefilled'` (the default): a field left out was simply not answered, and the client
   *   fills in its default before sending, as the spec's hosts do.
   *
   * The terminal host and the lab say `'prefilled'`; say it only when your form really shows the
   * defaults, or a person who never saw one submits a form without it.
   */
  readonly defaults?: 'prefilled' | 'not-prefilled';
  /**
   * Shows a URL question: the full URL, the registrable domain highlighted, every warning in
   * `inspection`, and asks for explicit consent. On `accept` the host opens the page in the system
   * browser; the client itself never opens or fetches it. When `inspection.allowed` is false the host
   * only tells the person the link was refused: the client answers `decline` whatever is returned.
   */
  url(request: UrlRequest, inspection: UrlInspection, context: AskContext): Promise<UrlConsent>;
  /**
   * After consent, waits while the server checks that the flow finished. Resolve `finished` when the
   * person says they are done, or `cancel`. `context.signal` aborts it when the server saw the flow
   * finish first (2025-11-25 `notifications/elicitation/complete`) or the call ended. Without this
   * method the client behaves as if the person said `finished` at once.
   */
  waitForUrl?(
    request: UrlRequest,
    inspection: UrlInspection,
    context: AskContext,
  ): Promise<'finished' | 'cancel'>;
  /**
   * Only for hosts that run sampling: declares the `sampling` capability (deprecated by MCP
   * 2026-07-28, still in the protocol). Show the request as a model request from this server, with
   * its messages, and let the person approve it (return the reply as a `CreateMessageResult`) or
   * decline it (`{ action: 'decline' }`); never answer without the person. How a decline reaches
   * the server depends on the era: see {@link SamplingDecline}.
   */
  sampling?(
    request: CreateMessageRequestParams,
    context: AskContext,
  ): Promise<CreateMessageResult | SamplingDecline>;
  /** Only for hosts that expose roots: declares the `roots` capability. Deprecated by MCP 2026-07-28. */
  roots?(context: AskContext): Promise<ListRootsResult>;
}
