import { isRecord, PARLEY_RESUME_META } from '@parley/core';

/** Calls whose tokens a connection keeps at most (the oldest is forgotten first). */
const MAX_TOKENS = 256;

/**
 * The resume tokens of calls a Parley server parked at a question page (the client could not show
 * the question, so the result carried the page's link and a token in `_meta`). The same call made
 * again (same method, same parameters) carries its token back, and only it goes on with the
 * person's answers: for an anonymous caller the server has nothing else to tell it from another.
 */
export class ResumeTokens {
  readonly #tokens = new Map<string, string>();

  /** `params` with the call's token in `_meta`, when a result gave it one. */
  attach(method: string, params: Record<string, unknown>): Record<string, unknown> {
    const token = this.#tokens.get(callKey(method, params));
    if (token === undefined) return params;
    const meta = isRecord(params._meta) ? params._meta : {};
    return { ...params, _meta: { ...meta, [PARLEY_RESUME_META]: token } };
  }

  /** Keeps the token a call's result names, or forgets the call's token (it ended, or parked anew). */
  remember(method: string, params: Record<string, unknown>, result: Record<string, unknown>): void {
    const key = callKey(method, params);
    this.#tokens.delete(key);
    const token = isRecord(result._meta) ? result._meta[PARLEY_RESUME_META] : undefined;
    if (typeof token !== 'string' || token.length > 64) return;
    if (this.#tokens.size >= MAX_TOKENS) this.#tokens.delete(this.#tokens.keys().next().value!);
    this.#tokens.set(key, token);
  }
}

/** The call's method and parameters, with object keys sorted: the same call written in another order. */
function callKey(method: string, params: Record<string, unknown>): string {
  return `${method}\0${JSON.stringify(params, (_key, value: unknown) =>
    isRecord(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((name) => [name, value[name]]),
        )
      : value,
  )}`;
}
