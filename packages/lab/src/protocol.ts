// The messages between the lab server (Node) and the lab page (browser). The server pushes
// LabEvents over Server-Sent Events; the page sends its requests as JSON POSTs. Nothing here ever
// carries what a person typed into a form, except the answer on its way to the client.

import type { SamplingView } from '@parley/client';
import type { FormContent, RequestedSchema } from '@parley/core/form';

/** Which protocol era the lab speaks to a server: `auto` tries 2026-07-28 first, then the 2025 handshake. */
export type EraChoice = 'auto' | 'modern' | 'handshake';
/** What the lab calls on a server: a tool, a prompt or a resource. */
export type CallKind = 'tool' | 'prompt' | 'resource';

/** A tool, prompt, resource or resource template as the server listed it (untrusted JSON). */
export type Listed = Readonly<Record<string, unknown>>;

/**
 * A root the person chose for a connection: a `file://` URI and an optional name. Roots are chosen
 * when connecting and declared only when there is at least one; the server reads them with
 * `roots/list`, answered without a question.
 */
export interface RootChoice {
  readonly uri: string;
  readonly name?: string;
}

/** One MCP server the lab is connected to (or trying to). */
export interface ServerView {
  readonly id: string;
  /** The command line or URL the person gave. */
  readonly target: string;
  readonly eraChoice: EraChoice;
  /** The roots declared to this server (none: the `roots` capability is not declared). */
  readonly roots?: readonly RootChoice[];
  readonly status: 'connecting' | 'ready' | 'failed' | 'closed';
  /** The server asks the person to sign in (OAuth): the authorization page to open, and its origin. */
  readonly signIn?: { readonly url: string; readonly origin: string };
  readonly error?: string;
  readonly info?: { readonly name: string; readonly version: string; readonly title?: string };
  readonly era?: 'modern' | 'handshake';
  readonly protocolVersion?: string;
  readonly tools?: readonly Listed[];
  readonly prompts?: readonly Listed[];
  readonly resources?: readonly Listed[];
  readonly resourceTemplates?: readonly Listed[];
}

/** One step of a call, for the timeline. Never the content of an answer or of the request state. */
export interface TimelineEntry {
  readonly type: string;
  readonly round: number;
  readonly at: number;
  readonly ms?: number;
  readonly method?: string;
  readonly keys?: readonly string[];
  readonly stateBytes?: number | null;
  readonly answers?: readonly { readonly key?: string; readonly method?: string; readonly action: string }[];
  readonly mode?: string;
  readonly key?: string;
  readonly reason?: string;
  readonly isError?: boolean;
  readonly message?: string;
}

/** One call of a tool, prompt or resource. */
export interface CallView {
  readonly id: string;
  readonly serverId: string;
  readonly kind: CallKind;
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly status: 'running' | 'done' | 'failed';
  readonly startedAt: number;
  readonly ms?: number;
  /** The result as the server sent it (untrusted JSON). */
  readonly result?: unknown;
  readonly error?: string;
  readonly timeline: readonly TimelineEntry[];
}

/** Who asks and during which call, as the page shows it. */
export interface QuestionContext {
  readonly server: { readonly name: string; readonly version: string; readonly title?: string };
  readonly call: { readonly kind: CallKind; readonly name: string };
  readonly round: number;
  readonly key?: string;
  readonly position: { readonly index: number; readonly of: number };
  readonly era: 'modern' | 'handshake';
}

/** A question waiting for the person. `url-wait` is the "I've finished" step after a URL was opened. */
export type QuestionView =
  | {
      readonly id: string;
      readonly mode: 'form';
      readonly serverId: string;
      readonly callId?: string;
      readonly request: { readonly message: string; readonly requestedSchema: RequestedSchema };
      readonly context: QuestionContext;
    }
  | {
      readonly id: string;
      readonly mode: 'url' | 'url-wait';
      readonly serverId: string;
      readonly callId?: string;
      readonly request: { readonly message: string; readonly url: string };
      readonly context: QuestionContext;
      /**
       * The person chose "I've finished" on this same page just before, and the server asks again:
       * the page was not answered (or finished) yet.
       */
      readonly notFinished?: boolean;
    }
  | {
      readonly id: string;
      /** A sampling request: the server wants a model reply, which the person types or declines. */
      readonly mode: 'sampling';
      readonly serverId: string;
      readonly callId?: string;
      readonly request: SamplingView;
      readonly context: QuestionContext;
    };

/** The "I've finished" step of a URL flow, shown in its call rather than in the dialog. */
export type UrlWaitQuestion = Extract<QuestionView, { mode: 'url' | 'url-wait' }> & {
  readonly mode: 'url-wait';
};

/** What the server pushes to the page. */
export type LabEvent =
  | {
      readonly type: 'snapshot';
      readonly servers: readonly ServerView[];
      readonly calls: readonly CallView[];
      readonly questions: readonly QuestionView[];
    }
  | { readonly type: 'server'; readonly server: ServerView }
  | { readonly type: 'server-removed'; readonly serverId: string }
  | { readonly type: 'call'; readonly call: CallView }
  | { readonly type: 'question'; readonly question: QuestionView }
  | { readonly type: 'question-closed'; readonly questionId: string };

/** The person's answer to a question, as the page posts it. */
export type QuestionAnswer =
  | { readonly action: 'accept'; readonly content?: FormContent }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }
  | { readonly action: 'finished' }
  /** A sampling request approved, with the reply the person typed (sent as the model's message). */
  | { readonly action: 'approve'; readonly reply: string };

/** The page's requests (POST bodies). */
export interface AddServerBody {
  readonly target: string;
  readonly era?: EraChoice;
  readonly roots?: readonly RootChoice[];
}
export interface StartCallBody {
  readonly serverId: string;
  readonly kind: CallKind;
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

/** The paths of the lab's API. */
export const API = {
  events: '/api/events',
  servers: '/api/servers',
  calls: '/api/calls',
  questions: '/api/questions',
} as const;
