import { isInputRequiredResult, type Result, type ServerContext } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { AuthorError } from '../errors.js';
import type {
  AnswerAction,
  Middleware,
  MiddlewareMethod,
  RequestContext,
  RoundObserver,
  RoundOutcome,
} from '../middleware.js';
import type { EraName } from '../request/call-request.js';
import type { Principal } from '../types.js';

/** The innermost step: serves the request and returns its result. */
export type ChainEnd = (observer: RoundObserver) => Promise<Result>;

/**
 * What the chain reads of the request it runs around: a call the SDK serves (`CallRequest`), or a
 * call `server.directToolCalls` serves (whose `sdk` throws: the SDK does not serve it).
 */
export interface ChainSubject {
  readonly app: Pick<App, 'middleware' | 'pendingQuestions'>;
  /** The server's own request (the era pin): middleware does not see it. */
  readonly internal: boolean;
  readonly method: MiddlewareMethod;
  /** The request's params as the client sent them. */
  readonly params: unknown;
  readonly era: EraName;
  readonly user: Principal | undefined;
  readonly sdk: ServerContext;
  /** Whether the request continues a call (it carries a `requestState`). */
  readonly continues: boolean;
  /** The 2026-07-28 answers it carries, as sent. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  /** Its `_meta`, as sent. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Runs `endpoint` inside `chain` (Koa/Hono-style onion: each middleware awaits `next()` once) and
 * returns the request's result.
 */
export function runChain(request: ChainSubject, endpoint: ChainEnd): Promise<Result> {
  // The server's own requests (the era pin) skip middleware. No middleware: the endpoint's own
  // promise, with no async frame around it while a 2025 call waits on its person.
  const chain = request.internal ? NO_MIDDLEWARE : request.app.middleware;
  if (chain.length === 0) return endpoint(IGNORE);
  return new ChainRun(chain, request, endpoint).run();
}

const NO_MIDDLEWARE: readonly Middleware[] = [];

/** One request going through the chain: what the era observes, and the `c` middleware reads. */
class ChainRun implements RoundObserver {
  readonly context: ChainContext;
  readonly began = performance.now();
  roundNumber: number | undefined;
  readonly askedKeys: string[] = [];
  outcome: RoundOutcome | undefined;
  produced: Result | undefined;
  #last = -1;
  /** Read from the request when first asked for (most middleware never does). */
  #answers: AnswerAction[] | undefined;
  readonly #chain: readonly Middleware[];
  readonly #endpoint: ChainEnd;
  readonly #request: ChainSubject;

  constructor(chain: readonly Middleware[], request: ChainSubject, endpoint: ChainEnd) {
    this.#chain = chain;
    this.#endpoint = endpoint;
    this.#request = request;
    const continuation = request.continues;
    this.roundNumber = request.era === 'handshake' || !continuation ? 1 : undefined;
    this.context = new ChainContext(request, this, !continuation);
  }

  round(n: number): void {
    this.roundNumber = n;
  }

  asked(keys: readonly string[]): void {
    this.askedKeys.push(...keys);
  }

  answered(answer: AnswerAction): void {
    this.answers.push(answer);
  }

  get answers(): AnswerAction[] {
    this.#answers ??= actionsOf(this.#request.inputResponses);
    return this.#answers;
  }

  /** Runs the chain and answers the request's result. */
  async run(): Promise<Result> {
    await this.dispatch(0);
    return this.finish();
  }

  /** Runs middleware `index` (or the endpoint past the last). */
  async dispatch(index: number): Promise<void> {
    if (index <= this.#last)
      throw new AuthorError('A middleware called next() twice; call it once (await next()) or not at all.');
    this.#last = index;
    if (index === this.#chain.length) this.#produced(await this.#endpoint(this));
    else await this.#chain[index]!(this.context, () => this.dispatch(index + 1));
  }

  #produced(produced: Result): void {
    this.produced = produced;
    this.context.result = produced;
    if (isInputRequiredResult(produced)) {
      const keys = Object.keys(produced.inputRequests ?? {});
      this.outcome = { type: 'ask', keys };
      this.asked(keys);
    } else this.outcome = COMPLETE;
  }

  /** The request's result once the chain has run, or the author's mistake that left it without one. */
  finish(): Result {
    const result = this.context.result;
    if (result === undefined)
      throw new AuthorError(
        'The middleware chain ended without a result: a middleware returned without calling next() or setting c.result.',
      );
    if (isInputRequiredResult(result) && result !== this.produced)
      throw new AuthorError(
        'A middleware answered with an InputRequiredResult this round did not produce (a cached question?). A ' +
          'question carries a state sealed for its own round: cache only results whose c.outcome.type is "complete".',
      );
    return result;
  }
}

const COMPLETE: RoundOutcome = { type: 'complete' };

/** The `c` of one request (see {@link RequestContext}). */
class ChainContext implements RequestContext {
  readonly method: MiddlewareMethod;
  readonly name: string | undefined;
  readonly args: unknown;
  readonly era: 'modern' | 'handshake';
  readonly user: Principal | undefined;
  readonly firstRound: boolean;
  readonly startedAt = Date.now();
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  result: Result | undefined = undefined;
  readonly #run: ChainRun;
  readonly #request: ChainSubject;

  constructor(request: ChainSubject, run: ChainRun, firstRound: boolean) {
    const {
      name,
      uri,
      arguments: args,
    } = (request.params ?? {}) as {
      name?: string;
      uri?: string;
      arguments?: unknown;
    };
    this.method = request.method;
    this.name = name ?? uri;
    this.args = args ?? {};
    this.era = request.era;
    this.user = request.user;
    this.meta = request.meta;
    this.firstRound = firstRound;
    this.#run = run;
    this.#request = request;
  }

  get sdk(): ServerContext {
    return this.#request.sdk;
  }

  get round(): number | undefined {
    return this.#run.roundNumber;
  }

  get asked(): readonly string[] {
    return this.#run.askedKeys;
  }

  get answered(): readonly AnswerAction[] {
    return this.#run.answers;
  }

  get pendingQuestions(): number {
    return this.#request.app.pendingQuestions.count;
  }

  get outcome(): RoundOutcome | undefined {
    return this.#run.outcome;
  }

  // A function made when read, not a method: middleware may take it apart (`const { elapsedMs } = c`).
  get elapsedMs(): () => number {
    const began = this.#run.began;
    return () => performance.now() - began;
  }
}

const IGNORE: RoundObserver = { round: () => {}, asked: () => {}, answered: () => {} };

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** The actions of a 2026-07-28 round's `inputResponses` (client input: only the known actions count). */
function actionsOf(responses: Readonly<Record<string, unknown>> | undefined): AnswerAction[] {
  const found: AnswerAction[] = [];
  for (const [key, reply] of Object.entries(responses ?? {})) {
    const action = (reply as { action?: unknown } | null)?.action;
    if (typeof action === 'string' && ACTIONS.has(action))
      found.push({ key, action: action as AnswerAction['action'] });
  }
  return found;
}
