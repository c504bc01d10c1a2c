import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';
import type { QuestionInput } from '@parley/core/form';
import type { FormInput, RootsInput, SamplingInput, UrlInput } from '../ask-types.js';

function formInput<Q extends QuestionInput>(
  message: string,
  question: Q,
  options?: { readonly mentionsSecret?: boolean; readonly allowVagueMessage?: boolean },
): FormInput<Q> {
  return {
    kind: 'form',
    message,
    question,
    ...(options?.mentionsSecret && { mentionsSecret: true }),
    ...(options?.allowVagueMessage && { allowVagueMessage: true }),
  };
}

/**
 * Builders for `ctx.elicitAll` entries of every kind: `input.elicit(message, question)` is what
 * `ctx.elicit(message, question)` asks alone.
 *
 * @example
 * const answers = await ctx.elicitAll({
 *   user_name: input.elicit('What is your name?', ask.form({ name: ask.text() })),
 *   greeting: input.sampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi.' } }], maxTokens: 50 }),
 *   client_roots: input.roots(),
 * });
 */
export const input = {
  /**
   * A form question, as `ctx.elicit` asks one; pass `{ mentionsSecret: true }` when its message only
   * mentions a secret, and `{ allowVagueMessage: true }` when it is short on purpose (see `ElicitOptions`).
   */
  elicit: formInput,
  /**
   * The name `input.elicit` had before: a form question.
   *
   * @deprecated Renamed `input.elicit` (`ask.form` builds the form itself); this name goes in the
   * next release.
   */
  form: formInput,
  /** A URL-mode question; `elicitationId` is what a 2025-11-25 client is sent (random by default). */
  url(
    message: string,
    url: string | URL,
    options?: { readonly elicitationId?: string; readonly allowVagueMessage?: boolean },
  ): UrlInput {
    return {
      kind: 'url',
      message,
      url: String(url),
      ...(options?.elicitationId !== undefined && { elicitationId: options.elicitationId }),
      ...(options?.allowVagueMessage && { allowVagueMessage: true }),
    };
  },
  sampling(params: CreateMessageRequestParams): SamplingInput {
    return { kind: 'sampling', params };
  },
  roots(): RootsInput {
    return { kind: 'roots' };
  },
} as const;
