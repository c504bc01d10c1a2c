import type {
  AuthInfo,
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
  Root,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { Answer, QuestionInput } from '@parley/core/form';
import type {
  AskMissingOptions,
  BatchItem,
  BatchResult,
  ElicitOutcome,
  FlowTarget,
  UrlOutcome,
  WithFields,
} from './ask-types.js';
import type { InputMode } from './errors.js';
import type { InputRequired, RoundAnswers } from './input-required.js';
import type { Json } from './state/round-state.js';

export type { Json };

/** The verified user behind a request (from the request's auth info; never from what the client claims). */
export interface Principal {
  readonly id: string;
  readonly authInfo?: AuthInfo;
}

/** Options for one `ctx.elicit` question. */
export interface ElicitOptions {
  /**
   * The key this question travels under (the `inputRequests` key on 2026-07-28; also sent in
   * `_meta` on the 2025 eras). Defaults to `q<n>`, where n counts the handler's ask points.
   */
  readonly key?: string;
  /**
   * The message only mentions a secret, it does not ask for one: Parley then sends it even where its
   * guardrail reads the message as asking for a secret (`SecretInFormError`). The form's fields are
   * still checked. A form question only; to ask for a secret itself use `ask.secret()`.
   *
   * @example
   * await ctx.elicit('Your API key, the one ending in 1234, will be rotated. Go ahead?', ask.boolean(), {
   *   mentionsSecret: true,
   * });
   */
  readonly mentionsSecret?: boolean;
  /**
   * The message is short on purpose: Parley then sends it even though it says nothing about what is
   * asked ("Input needed", "Please provide input"), which it otherwise refuses with a
   * `VagueMessageError` (the person reads the message to know what is asked and why).
   *
   * @example
   * await ctx.elicit('Details, please', ask.form({ city: ask.text({ title: 'City of departure' }) }), {
   *   allowVagueMessage: true,
   * });
   */
  readonly allowVagueMessage?: boolean;
  /**
   * Where the question may be asked. `auto` (the default) takes the ladder: in the client when it
   * shows forms, else on a page of this server (by URL mode, or by a link in the call's result).
   * `inband` asks only in the client (`ElicitationUnavailable` when it cannot); `page` always asks
   * on the page.
   */
  readonly via?: 'auto' | 'inband' | 'page';
  /**
   * A URL question on 2025-11-25: the `elicitationId` to send (a random one by default). A server
   * that learns later that the page's flow finished tells the client with
   * `notifications/elicitation/complete` naming it (a relay passes on its upstream's).
   */
  readonly elicitationId?: string;
}

/** Options of `ctx.confirm`. */
export interface ConfirmOptions {
  /** The key the question travels under (as for `ctx.elicit`). */
  readonly key?: string;
  /** The label of the yes/no field. Default `Confirm`. */
  readonly title?: string;
  /**
   * `page`: the person must confirm on a page of this server (signed in as the user who made the
   * call, where the server has users); an `accept` sent by the client never counts. The
   * confirmation is bound to this call (tool, arguments, user) and expires with its page.
   */
  readonly proof?: 'page';
}

/** What the person said to a confirmation: `confirmed` only when they accepted with yes. */
export interface ConfirmOutcome {
  readonly confirmed: boolean;
  readonly action: 'accept' | 'decline' | 'cancel';
}

/**
 * What a handler gets: the request's facts and the ways to ask the person. Its methods may be
 * called on it (`ctx.elicit(...)`) or taken off it (`async (args, { elicit, log }) => ...`).
 */
export interface ParleyContext {
  /** `modern` is 2026-07-28 (stateless rounds); `handshake` the 2025 revisions (questions over the session). */
  readonly era: 'modern' | 'handshake';
  readonly protocolVersion: string;
  /**
   * How the request came: `http` (Streamable HTTP, either era) or `stdio` (the one client that
   * started this process). A stdio connection is one client for its whole life; over HTTP only a
   * 2025 session (`ctx.sdk.sessionId`) or the verified user ties one request to another.
   */
  readonly transport: 'http' | 'stdio';
  /** The verified user, when the request was authenticated. */
  readonly user: Principal | undefined;
  /** What the client says about itself. Self-reported: never use it for decisions. */
  readonly client: { readonly name?: string; readonly version?: string };
  /** Aborted when the client cancels the call (for a task: when the task is cancelled). */
  readonly signal: AbortSignal;
  /** Whether the client declared this kind of input on this request. */
  can(mode: InputMode): boolean;
  /**
   * What the client declared, as it sent it: on 2026-07-28 this request's `clientCapabilities`, on
   * the 2025 eras the session's. Untrusted input; for a decision about asking use {@link can}.
   */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * Asks the person one question and waits for the answer.
   *
   * @example
   * const boxes = await ctx.elicit('How many boxes?', ask.integer({ min: 1, max: 3 }));
   * if (boxes.action !== 'accept') return 'No return booked.';
   * boxes.value; // number
   */
  elicit<Q extends QuestionInput>(
    message: string,
    question: Q,
    options?: ElicitOptions,
  ): Promise<ElicitOutcome<Answer<Q>>>;
  /**
   * The tool's arguments, complete: those its input schema requires, and the optional ones named in
   * `fields`, that `args` lacks (or that fail the schema) are asked of the person in one form, with
   * the `defaults` you suggest; the caller's own values are filled in for the person to change
   * (`given: 'default'`) or left out of the form (`given: 'skip'`). Resolves with the arguments
   * checked against the tool's schema, or the person's decline or cancel; asks nothing when
   * nothing is missing. A client that cannot be asked at all, or an argument a form cannot ask,
   * ends the call with the usual invalid-arguments error (a `ToolError`). For a tool; use
   * `askMissing` in its config to do this before the handler runs.
   *
   * @example
   * server.tool('book_return', { input: z.object({ boxes: z.int().min(1).max(3).optional(), email: z.email().optional() }) },
   *   async (args, ctx) => {
   *     const full = await ctx.elicitMissing(args, { fields: ['boxes', 'email'], defaults: { email: 'ann@example.com' } });
   *     if (full.action !== 'accept') return 'No return booked.';
   *     return `Booked ${full.value.boxes} box(es); the label goes to ${full.value.email}.`;
   *   });
   */
  elicitMissing<A extends object, F extends keyof A & string = never>(
    args: A,
    options?: AskMissingOptions<A, F>,
  ): Promise<ElicitOutcome<WithFields<A, F>>>;
  /**
   * Asks the person to confirm (a yes/no field, never an empty form) and waits. With
   * `{ proof: 'page' }` only a confirmation given on a page of this server counts (see
   * {@link ConfirmOptions.proof}): use it before anything destructive.
   *
   * @example
   * server.tool('delete_repo', {}, async (_args, ctx) => {
   *   const ok = await ctx.confirm('Delete the repository? This cannot be undone.', { proof: 'page' });
   *   return ok.confirmed ? 'Deleted.' : 'Nothing deleted.';
   * });
   */
  confirm(message: string, options?: ConfirmOptions): Promise<ConfirmOutcome>;
  /**
   * Asks several questions in one round (one `inputRequests` map on 2026-07-28; sent concurrently on
   * the 2025 eras) and waits for all answers.
   *
   * @example
   * const { name, region } = await ctx.elicitAll({
   *   name: ['Database name?', ask.text()],
   *   region: ['Which region?', ask.choice(['eu', 'us'])],
   * });
   */
  elicitAll<B extends Record<string, BatchItem>>(batch: B): Promise<{ [K in keyof B]: BatchResult<B[K]> }>;
  /**
   * Sends the person to a URL (URL mode) and waits for their consent. `accept` means only "I agreed
   * to open it": nothing is known about what happened on the page.
   */
  elicitUrl(message: string, url: string | URL, options?: ElicitOptions): Promise<UrlOutcome>;
  /**
   * Sends the person to a flow page of this server (registered with `server.flow(kind, page)`),
   * bound to the user who made this call, and waits until the page completes the flow. Resolves
   * with what the page passed to `complete()`; throws `FlowExpiredError` when the link expired and
   * `FlowFailedError` when the page failed the flow.
   *
   * @example
   * const linked = await ctx.elicitUrl<{ account: string }>('Connect your store account', { flow: 'store-account' });
   * if (linked.action === 'accept') return `Connected as ${linked.value.account}`;
   */
  elicitUrl<T extends Json = Json>(
    message: string,
    target: FlowTarget,
    options?: ElicitOptions,
  ): Promise<ElicitOutcome<T>>;
  /**
   * Runs a side effect or a non-deterministic read once per logical call. Its JSON result is
   * remembered across rounds, so replay never repeats it.
   *
   * `fn` receives an idempotency key, the same for this call and `name` in every round. A client
   * may send the same round twice (a network retry, or on purpose: a state stays valid until it
   * expires), which runs the work of that round again; store the key with the side effect (a unique
   * column, a payment provider's idempotency key) to make it happen exactly once.
   *
   * @example
   * const id = await ctx.once('book', (key) => db.bookReturn({ idempotencyKey: key, order: 'A-1041', boxes: 2 }));
   */
  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T>;
  /**
   * Ends this round without a question, for a call that must wait on something else (a job, a page
   * of another system): on 2026-07-28 the client gets an `InputRequiredResult` with only
   * `requestState` and sends the call again at once, and the handler goes on from here; on the
   * 2025 eras (and in a task) it waits `afterMs` (default 250) here and goes on. Each time counts as
   * a round against `maxRounds`. Keep what comes before it deterministic, as before a question.
   *
   * @example
   * const job = await ctx.once('start', () => jobs.start({ report: 'returns-q3' }));
   * let tries = 0;
   * while (!(await ctx.once(`done:${tries}`, () => jobs.done(job)))) { tries++; await ctx.yieldRound(); }
   */
  yieldRound(options?: { readonly afterMs?: number }): Promise<void>;
  /** Asks the client's model (sampling; deprecated in 2026-07-28 but still in the protocol). */
  sample(params: CreateMessageRequestParams, options?: ElicitOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots (deprecated in 2026-07-28 but still in the protocol). */
  roots(options?: ElicitOptions): Promise<Root[]>;
  /**
   * Guard style: this round's answers to `questions`, the questions the last round asked with
   * `return inputRequired(questions, { data })`. A key is missing until it was answered (an invalid
   * answer is asked again, with its reason). See `inputRequired()`.
   *
   * @example
   * const questions = { confirm: input.elicit('Delete 3 files?', ask.boolean()) };
   * const { confirm } = await ctx.answers(questions);
   * if (!confirm) return inputRequired(questions);
   */
  answers<Q extends Record<string, BatchItem>>(questions: Q): Promise<RoundAnswers<Q>>;
  /** Guard style: the `data` the last round passed to `inputRequired()`, kept sealed across rounds. */
  data<T extends Json = Json>(): T | undefined;
  /**
   * Reports progress on this call (`notifications/progress`), when the client asked for it with a
   * `progressToken`; otherwise does nothing. On 2026-07-28, progress an earlier round already
   * reported is not reported again when the round replays.
   *
   * @example
   * await ctx.progress(50, 100, 'Half way');
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message to the client (`notifications/message`) when the client wants messages of
   * this level: at or above its `logging/setLevel` on the 2025 eras, at or above the request's
   * `_meta` log level on 2026-07-28 (none when the request names no level). On 2026-07-28, a message
   * an earlier round already sent is not sent again when the round replays.
   *
   * @example
   * await ctx.log('info', 'Tool execution started');
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Turns this call into a task (a tool with `task` in its config, 2026-07-28, a client that
   * declared the tasks extension): the client gets a task id now and polls `tasks/get`, and the
   * handler goes on in the background. Questions asked after this reach the person through the
   * task. A no-op when the call cannot become a task and the tool's task support is `'optional'`
   * (and on the 2025 eras); `-32021` when it is `'required'`.
   *
   * @example
   * const name = await ctx.elicit('Who is this report for?', ask.text()); // asked before the task
   * await ctx.runAsTask();
   * return await buildReport(name.action === 'accept' ? name.value : 'you', ctx.signal); // runs as a task
   */
  runAsTask(): Promise<void>;
  /**
   * On a 2025 session over HTTP, ends this call's SSE stream now, so a long call holds no
   * connection: the client reconnects after the stream's `retry` interval (with `Last-Event-ID`)
   * and receives what the call sends later, its result included. Does nothing elsewhere.
   *
   * @example
   * ctx.closeStream();
   * return await waitForTheBatchJob(ctx.signal);
   */
  closeStream(): void;
  /** The official SDK's request context, for what Parley does not wrap. */
  readonly sdk: ServerContext;
}

/**
 * Suggests values for one prompt argument or template variable, given what the person typed so far
 * and the values of the other arguments already filled in. Return at most 100 values.
 */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** Completers by argument (or variable) name. */
export type Completers = Readonly<Record<string, Completer>>;

/** What a tool handler may return: a full result, or a string (one text block). */
export type ToolReturn = CallToolResult | string | InputRequired;
/** What a prompt handler may return: a full result, or a string (one user message). */
export type PromptReturn = GetPromptResult | string | InputRequired;
/** What a resource handler may return: a full result, or a string (one text content at the URI read). */
export type ResourceReturn = ReadResourceResult | string | InputRequired;
