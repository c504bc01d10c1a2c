// What a handler asks with (`ctx.elicit`, `input.*`) and what each ask resolves to. The words of
// asking, below the kinds that carry them and the context that offers them.

import type { CreateMessageRequestParams, CreateMessageResult, Root } from '@modelcontextprotocol/server';
import type { Answer, QuestionInput } from '@parley/core/form';
import type { Json } from './state/round-state.js';

/** The person's answer to a form question: accepted with a typed value, declined, or cancelled. */
export type ElicitOutcome<T> =
  | { readonly action: 'accept'; readonly value: T }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The person's answer to a URL question. `accept` means only "I agreed to open it". */
export type UrlOutcome =
  | { readonly action: 'accept' }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** Which flow page to send the person to, and what that page may need (no secrets). */
export interface FlowTarget {
  readonly flow: string;
  readonly data?: Json;
}

/** One entry of a `ctx.elicitAll` batch, built with `input.*`, or a `[message, question]` pair for a form. */
export type BatchItem =
  | readonly [message: string, question: QuestionInput]
  | FormInput<QuestionInput>
  | UrlInput
  | SamplingInput
  | RootsInput;

/** A form question in a `ctx.elicitAll` batch, built with `input.elicit(message, question)`. */
export interface FormInput<Q extends QuestionInput> {
  readonly kind: 'form';
  readonly message: string;
  readonly question: Q;
  /**
   * The message only mentions a secret, it does not ask for one: Parley then sends it even where its
   * guardrail reads the message as asking for a secret (`SecretInFormError`). The form's fields are
   * still checked. A form question only; to ask for a secret itself use `ask.secret()`.
   *
   * @example
   * await ctx.elicitAll({
   *   rotate: input.elicit('Your API key, the one ending in 1234, will be rotated. Go ahead?', ask.boolean(), {
   *     mentionsSecret: true,
   *   }),
   * });
   */
  readonly mentionsSecret?: boolean;
  /** The message is short on purpose (see `ElicitOptions.allowVagueMessage`). */
  readonly allowVagueMessage?: boolean;
}
/** A URL-mode question in a `ctx.elicitAll` batch, built with `input.url(message, url)`. */
export interface UrlInput {
  readonly kind: 'url';
  readonly message: string;
  readonly url: string;
  /** The message is short on purpose (see `ElicitOptions.allowVagueMessage`). */
  readonly allowVagueMessage?: boolean;
  /** The 2025-11-25 `elicitationId` to send (see `ElicitOptions.elicitationId`). */
  readonly elicitationId?: string;
}
/** A sampling request (`sampling/createMessage`) in a `ctx.elicitAll` batch, built with `input.sampling(params)`. */
export interface SamplingInput {
  readonly kind: 'sampling';
  readonly params: CreateMessageRequestParams;
}
/** A request for the client's roots (`roots/list`) in a `ctx.elicitAll` batch, built with `input.roots()`. */
export interface RootsInput {
  readonly kind: 'roots';
}

/** What each batch entry resolves to. */
export type BatchResult<I> = I extends readonly [string, infer Q extends QuestionInput]
  ? ElicitOutcome<Answer<Q>>
  : I extends FormInput<infer Q>
    ? ElicitOutcome<Answer<Q>>
    : I extends UrlInput
      ? UrlOutcome
      : I extends SamplingInput
        ? CreateMessageResult
        : I extends RootsInput
          ? Root[]
          : never;

/**
 * How Parley asks the person for a tool's arguments the caller left out or got wrong
 * (`askMissing` in a tool's config, or `ctx.elicitMissing(args, options)`): one form with the
 * arguments the input schema requires, and those named in `fields`, that are absent or invalid.
 *
 * @typeParam A the tool's arguments.
 * @typeParam F the optional arguments asked as if required (the handler gets them filled in).
 */
export interface AskMissingOptions<A = Record<string, unknown>, F extends keyof A = never> {
  /**
   * Optional arguments to ask for when the caller left them out, as if the schema required them
   * (keep them optional in the schema so a caller that cannot be asked may still call). The
   * arguments the schema requires are always asked when absent or invalid.
   */
  readonly fields?: readonly F[];
  /** Optional arguments offered in the same form, which the person may leave empty; never asked alone. */
  readonly optional?: readonly (keyof A & string)[];
  /**
   * The asked-for arguments the caller did give: `default` (the default) puts them in the form,
   * filled in, for the person to change; `skip` leaves them out of it.
   */
  readonly given?: 'default' | 'skip';
  /** Values to suggest for arguments that are asked (shown filled in), e.g. from the signed-in user. */
  readonly defaults?: { readonly [K in keyof A]?: A[K] };
  /** What the person reads above the form. Default: the tool and the arguments it needs. */
  readonly message?: string;
  /** The question's key (as `ctx.elicit`'s). Default `missing_arguments`. */
  readonly key?: string;
}

/** The arguments with the fields `F` filled in (no longer optional). */
export type WithFields<A, F extends keyof A> = [F] extends [never]
  ? A
  : Omit<A, F> & { [K in F]-?: Exclude<A[K], undefined> };
