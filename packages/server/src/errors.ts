/** A mode of input the client must have declared for a question to be sent. */
export type InputMode = 'form' | 'url' | 'sampling' | 'roots';

/**
 * The base of every error whose message is meant for whoever made the call: the call ends for a
 * reason someone can act on, and the message says what to do. Any other error a handler throws
 * reaches the caller only as an internal error with a reference id.
 */
export class CallEndingError extends Error {
  /** True when the error is a mistake in the server's code (it is also logged as an error). */
  readonly authorBug: boolean = false;
}

/**
 * An error in the server's own code that ends the call with an explanation (replay divergence, a
 * state too large, a secret in a form): shown to the caller and logged for the author.
 */
export class AuthorError extends CallEndingError {
  override readonly authorBug = true;
}

/**
 * Thrown by `ctx.elicit` (and friends) when the client cannot show this kind of question. A tool may
 * catch it and answer in plain text instead; uncaught, the server answers `-32021` with
 * `data.requiredCapabilities` (HTTP 400) on 2026-07-28, and a tool error on the 2025 eras.
 *
 * @example
 * let date;
 * try {
 *   date = await ctx.elicit('Pickup date?', ask.date());
 * } catch (error) {
 *   if (error instanceof ElicitationUnavailable) return 'I need the pickup date: call again with pickup_date.';
 *   throw error;
 * }
 */
export class ElicitationUnavailable extends CallEndingError {
  readonly mode: InputMode;
  readonly requiredCapabilities: Record<string, unknown>;

  /**
   * @param need what the kind of question needs (`required`: the capabilities the client must
   *   declare) and what the author can do instead (`steer`), from the server's table of kinds.
   */
  constructor(mode: string, need: { readonly required: Record<string, unknown>; readonly steer: string }) {
    super(`Cannot ask: ${need.steer}.`);
    this.name = 'ElicitationUnavailable';
    this.mode = mode as InputMode;
    this.requiredCapabilities = need.required;
  }
}

/**
 * The handler asked something on a replayed round that differs from what it asked at the same point
 * before. On 2026-07-28 every round re-runs the handler from the top, so everything before a
 * question must be deterministic.
 */
export class ReplayDivergenceError extends AuthorError {
  constructor(position: number, what: string) {
    super(
      `Replay diverged at ask point ${position + 1} (${what}): on 2026-07-28 the handler runs again from the top ` +
        'on every round and must ask the same questions in the same order. Move anything that varies between ' +
        'runs (time, randomness, reads of changing data, side effects) into `await ctx.once(name, fn)`, whose ' +
        'result is remembered across rounds, and derive questions only from arguments, answers and ctx.once results.',
    );
    this.name = 'ReplayDivergenceError';
  }
}

/** The person gave invalid answers to the same question too many times. */
export class TooManyInvalidAnswersError extends CallEndingError {
  constructor(tries: number, reason: string) {
    super(
      `The answer was still not valid after ${tries} tries (${reason}). Call the tool again to start over.`,
    );
    this.name = 'TooManyInvalidAnswersError';
  }
}

/** The call asked more rounds of questions than the server allows. */
export class RoundLimitError extends CallEndingError {
  /**
   * @param hint what the server's code did that made the call loop, when Parley can tell (a guard
   *   whose `ctx.answers()` never matched the questions it asked).
   */
  constructor(limit: number, hint?: string) {
    super(
      hint === undefined
        ? `This call needed more than ${limit} rounds of questions and was stopped. Ask several questions in one ` +
            'round with ctx.elicitAll() or ask.form(), or raise `maxRounds` in createServer().'
        : `This call needed more than ${limit} rounds of questions and was stopped: ${hint}.`,
    );
    this.name = 'RoundLimitError';
  }
}

/** A question timed out waiting for the person (2025 eras, where the server waits on the session). */
export class QuestionTimeoutError extends CallEndingError {
  constructor(ms: number) {
    super(`No answer came within ${duration(ms)}, so the call was stopped. Call the tool again.`);
    this.name = 'QuestionTimeoutError';
  }
}

/** Whole seconds as seconds, anything else in milliseconds (a 300 ms timeout is not "0 seconds"). */
function duration(ms: number): string {
  if (ms % 1000 !== 0) return `${ms} ms`;
  return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
}

/**
 * An error whose message is meant for the caller. Throw it from a handler to end the call with that
 * message (a tool error result for tools). Any other error is reported to the caller only as an
 * internal error with a reference id, and its message goes to the server log, so exceptions from
 * libraries (which may quote connection strings or file paths) never reach the client.
 *
 * @example
 * server.tool('find_order', { input: z.object({ orderId: z.string() }) }, ({ orderId }) => {
 *   const order = orders.get(orderId);
 *   if (!order) throw new ToolError(`No order ${orderId}; check the number on the receipt.`);
 *   return `Order ${order.id} is on its way.`;
 * });
 */
export class ToolError extends CallEndingError {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The client cancelled the call (or went away) while a question waited for an answer. */
export class CallCancelledError extends CallEndingError {
  /** Why, as the client or the transport said (the client's text, cut to 200 characters). */
  readonly reason: string;

  constructor(reason: unknown) {
    const said = reason instanceof Error ? reason.message : String(reason);
    const cut = said.length > 200 ? `${said.slice(0, 200)}…` : said;
    super(`The call was cancelled while it waited for an answer (${cut}).`);
    this.name = 'CallCancelledError';
    this.reason = cut;
  }
}

/** The person did not finish a URL flow before its link expired (or it was cancelled elsewhere). */
export class FlowExpiredError extends CallEndingError {
  constructor(message: string) {
    super(
      `The page for "${message}" was not finished before its link expired. Call the tool again to get a new link.`,
    );
    this.name = 'FlowExpiredError';
  }
}

/** The flow's page ended the flow as failed. */
export class FlowFailedError extends CallEndingError {
  constructor(reason: string) {
    super(`The page could not finish: ${reason}`);
    this.name = 'FlowFailedError';
  }
}

/**
 * Thrown by `ctx.sample` on the 2025 eras when the person declined the sampling request (the client
 * answered with JSON-RPC error `-1`, "User rejected sampling request"). Catch it to finish without
 * the model's reply; uncaught, the tool call ends with this message as a tool error. On 2026-07-28
 * a client that declines simply does not retry the call, so the handler is not run again and there
 * is nothing to catch (nothing waits on the server: the call's state lives in `requestState`).
 *
 * @example
 * const messages = [{ role: 'user', content: { type: 'text', text: 'Summarize the report.' } }] as const;
 * let summary;
 * try {
 *   summary = await ctx.sample({ messages: [...messages], maxTokens: 200 });
 * } catch (error) {
 *   if (error instanceof SamplingDeclinedError) return 'No summary: you declined the model request.';
 *   throw error;
 * }
 */
export class SamplingDeclinedError extends CallEndingError {
  /** The JSON-RPC error code the client answered with (`-1`). */
  readonly code: number;

  constructor(code: number) {
    super(
      "The person declined this server's model request (sampling), so the call has no model reply. " +
        'Catch SamplingDeclinedError around ctx.sample() to finish without it.',
    );
    this.name = 'SamplingDeclinedError';
    this.code = code;
  }
}

const ASK_SECRET = 'ask for it with ask.secret() (answered on a page of this server, never in a form)';

/**
 * A form question asks for a secret (a password, an API key, a card number...). Secrets must never
 * pass through a form: the client, and the model behind it, would see them. Ask for one with
 * `ask.secret()`, which is answered on a page of your server, never in a form. A message that only
 * mentions a secret ("Send you a password reset link?") can say so with `{ mentionsSecret: true }`.
 */
export class SecretInFormError extends AuthorError {
  constructor(fields: readonly { name: string; looksLike: string }[]) {
    const list = fields.map((field) => `'${field.name}' (${field.looksLike})`).join(', ');
    super(
      `This form asks for ${list}. Secrets must never pass through a form, where the client and its model see them: ` +
        `${ASK_SECRET}. If a field only looks like a secret, give it a name and title that say what it holds.`,
    );
    this.name = 'SecretInFormError';
  }

  /** The form's message asks for a secret ("Please paste your GitHub API key"). */
  static inMessage(message: string, looksLike: string): SecretInFormError {
    const error = new SecretInFormError([]);
    error.message =
      `This form's message ("${message}") asks for ${looksLike}. Secrets must never pass through a form, where the ` +
      `client and its model see them: ${ASK_SECRET}. If the message only mentions a secret, pass ` +
      '{ mentionsSecret: true }, e.g. ctx.elicit(message, question, { mentionsSecret: true }).';
    return error;
  }
}
