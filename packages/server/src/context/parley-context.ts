import type { CreateMessageRequestParams, LoggingLevel, ServerContext } from '@modelcontextprotocol/server';
import { ask, type PreparedQuestion, type QuestionInput } from '@parley/core/form';
import { type AskItem, type AskPoint, askPoint, type ItemResult } from '../ask/ask-item.js';
import { elicitMissing } from '../ask/ask-missing.js';
import type { CallHost } from '../ask/call-host.js';
import { fingerprint } from '../ask/fingerprint.js';
import { isDeclared, kindOf, requireDeclared } from '../ask/kind-table.js';
import { checkedFormEntry } from '../ask/kinds/form.js';
import { type FormRoute, type RouteWish, routeForm } from '../ask/route.js';
import type { AskMissingOptions, BatchItem, ElicitOutcome, FlowTarget } from '../ask-types.js';
import { ToolError } from '../errors.js';
import type { FlowKit } from '../flows/flow-kit.js';
import type { ArgumentsSource } from '../registry/missing-args.js';
import type { Json } from '../state/round-state.js';
import type { TaskRecord } from '../tasks/task-record.js';
import type { ConfirmOptions, ConfirmOutcome, ElicitOptions, ParleyContext, Principal } from '../types.js';
import { type GuardRound, NO_GUARD_ROUND } from './guard-round.js';
import { type PageCallFacts, pageItem, replayedRoute, routeFacts } from './page-questions.js';
import { NotificationSequence, sendLog, sendProgress } from './side-channels.js';

const AUTO: RouteWish = { via: 'auto', proof: false };
/** How long `ctx.yieldRound()` waits where there are no rounds to end (the pace Parley's client retries at). */
const DEFAULT_YIELD_MS = 250;
const INBAND: FormRoute = { kind: 'inband' };
const NOT_A_CONFIRMATION = { confirm: false, proof: false } as const;

/** Thrown out of an ask point to end the round; never a failure. Handlers should let it pass. */
export const SUSPEND: unique symbol = Symbol('parley.suspend');

/** Where ask points go: the replay engine (2026-07-28) or the push engine (2025 eras). */
export interface AskEngine {
  ask(point: AskPoint): Promise<ItemResult[]>;
  /**
   * Asks the one question of a single-item point and resolves with its result: the same as
   * `ask(point)` and its first result, without the array and the promises around it. Only an
   * engine that never suspends (rejects with `SUSPEND`) may offer it: the context stops its
   * notification sequence on a suspension only on the `ask` path.
   */
  askOne?(point: AskPoint): Promise<ItemResult>;
  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T>;
  /**
   * A round that asks nothing (`ctx.yieldRound`): on 2026-07-28 the round ends with a state-only
   * InputRequiredResult the first time the handler gets here, and goes on past it when the client
   * sends the call again; where there are no rounds it waits `afterMs` and goes on.
   */
  yieldRound(fingerprint: number, label: string, afterMs: number): Promise<void>;
  /** Told the progress the handler reports (`ctx.progress`), which reminders sent while a question waits go on from. */
  progressed?(progress: number, total: number | undefined): void;
  /**
   * The fingerprint of the journal entry replayed next (`undefined` past the journal): a question is
   * asked where the call first asked it when it replays, whatever this request's client declared.
   */
  upNext?(): number | undefined;
}

/** How a call becomes a task (the tasks extension); `eras/task-start.ts` implements it. */
export interface TaskHooks {
  /** The task, once the call became one. */
  readonly current: TaskRecord | undefined;
  runAsTask(): Promise<void>;
}

export interface ContextFacts extends PageCallFacts {
  readonly era: 'modern' | 'handshake';
  readonly protocolVersion: string;
  readonly user: Principal | undefined;
  readonly clientCapabilities: unknown;
  readonly clientInfo: { readonly name?: string; readonly version?: string } | undefined;
  /** The call's client, when a host profile knows it (its forms are lowered for it). */
  readonly host?: CallHost | undefined;
  readonly sdk: ServerContext;
  /** URL flows, when the server has them configured. */
  readonly flows: FlowKit | undefined;
  /** The guard-style round: answers to what the last `inputRequired()` asked, and the author's data. */
  readonly guard?: GuardRound;
  /** How the call becomes a task (`ctx.runAsTask()`). */
  readonly task: TaskHooks;
  /** The arguments of the tool the call runs, for `ctx.elicitMissing` (a tool with an input schema). */
  readonly argumentsSource?: ArgumentsSource | undefined;
  /**
   * Where this run of the handler is in the call's notifications, when the handler has run before
   * (a later 2026-07-28 round, a later guard round on the 2025 eras). Absent: a first run.
   */
  readonly notifications?: NotificationSequence;
}

/**
 * The items of a `ctx.elicitAll` batch (or of `inputRequired(questions)`), each checked against
 * what the client declared (`can`).
 */
export function batchItems(
  batch: Readonly<Record<string, BatchItem>>,
  can: (kind: string) => boolean,
  host?: CallHost,
): AskItem[] {
  const kindFor = (name: string) => {
    const kind = kindOf({ kind: name });
    requireDeclared(kind, can);
    return kind;
  };
  const items = Object.entries(batch).map(([key, entry]) => {
    if (Array.isArray(entry)) {
      const [message, question] = entry as readonly [string, QuestionInput];
      return kindFor('form').item(key, { kind: 'form', message, question, host });
    }
    const fields = entry as unknown as Readonly<Record<string, unknown>> & { readonly kind: string };
    return kindFor(fields.kind).item(key, fields.kind === 'form' && host ? { ...fields, host } : fields);
  });
  if (items.length === 0) throw new TypeError('A batch of questions needs at least one question.');
  return items;
}

const firstOf = (results: readonly ItemResult[]): ItemResult => results[0]!;

/** What a client calls itself, by its `clientInfo` object: one copy per session, not per call. */
const clientOf = new WeakMap<object, ParleyContext['client']>();
const NO_CLIENT: ParleyContext['client'] = Object.freeze({});
const NO_CAPABILITIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** The `ctx.client` of a call: what the client calls itself, its name cut to a sane length. */
function clientFacts(info: ContextFacts['clientInfo']): ParleyContext['client'] {
  if (typeof info !== 'object' || info === null) return NO_CLIENT;
  let client = clientOf.get(info);
  if (client === undefined) {
    const copy: { name?: string; version?: string } = {};
    // What a client calls itself is untrusted and unbounded: 80 characters is plenty for a name.
    if (typeof info.name === 'string') copy.name = info.name.slice(0, 80);
    if (info.version !== undefined) copy.version = info.version;
    client = Object.freeze(copy);
    clientOf.set(info, client);
  }
  return client;
}

/** Builds the `ctx` a handler receives. */
export function createContext(facts: ContextFacts, engine: AskEngine): ParleyContext {
  return new CallContext(facts, engine);
}

/**
 * The `ctx` of one call. Its methods live on the prototype and its state in a few fields: a 2025-era
 * call keeps its `ctx` for as long as the person takes to answer, so what it holds per call is
 * memory per pending question. Each method is bound to its `ctx` when it is read (see below), so a
 * handler may also take them apart: `async (args, { elicit, log }) => ...`.
 */
class CallContext implements ParleyContext {
  readonly #facts: ContextFacts;
  readonly #engine: AskEngine;
  readonly #notifications: NotificationSequence;
  #asked = 0;
  #yields = 0;

  constructor(facts: ContextFacts, engine: AskEngine) {
    this.#facts = facts;
    this.#engine = engine;
    this.#notifications = facts.notifications ?? new NotificationSequence();
  }

  get era(): ParleyContext['era'] {
    return this.#facts.era;
  }

  get protocolVersion(): string {
    return this.#facts.protocolVersion;
  }

  get transport(): ParleyContext['transport'] {
    return this.#facts.transport;
  }

  get user(): Principal | undefined {
    return this.#facts.user;
  }

  get client(): ParleyContext['client'] {
    return clientFacts(this.#facts.clientInfo);
  }

  get sdk(): ServerContext {
    return this.#facts.sdk;
  }

  get signal(): AbortSignal {
    return this.#facts.task.current?.abort.signal ?? this.#facts.sdk.mcpReq.signal;
  }

  get clientCapabilities(): Readonly<Record<string, unknown>> {
    const declared = this.#facts.clientCapabilities;
    return typeof declared === 'object' && declared !== null
      ? (declared as Record<string, unknown>)
      : NO_CAPABILITIES;
  }

  can(name: string): boolean {
    // Looked up each time: a cache keyed by the capabilities object cost more than the lookup (on
    // 2026-07-28 every request brings a new one).
    return isDeclared(name, this.#facts.clientCapabilities, this.#facts.protocolVersion);
  }

  #nextKey(options: { readonly key?: string } | undefined): string {
    this.#asked++;
    return options?.key ?? `q${this.#asked}`;
  }

  /** The table's entry for `name`, once the client is known to have declared what it needs. */
  #kindFor(name: string) {
    const kind = kindOf({ kind: name });
    requireDeclared(kind, (declared) => this.can(declared));
    return kind;
  }

  // No `await` here nor in the methods that return it: a suspended async frame per pending
  // question is memory (a 2025-era call may wait on the person for minutes).
  #ask(point: AskPoint): Promise<ItemResult[]> {
    return this.#engine.ask(point).catch((error: unknown) => {
      if (error === SUSPEND) this.#notifications.stop();
      throw error;
    });
  }

  #askOne(item: AskItem): Promise<ItemResult> {
    const point = askPoint([item], false);
    return this.#engine.askOne ? this.#engine.askOne(point) : this.#ask(point).then(firstOf);
  }

  elicit(message: string, question: QuestionInput, options?: ElicitOptions): Promise<never> {
    // Not `async`: its promise would wait on the question's, one more link per pending question.
    // A mistake found before asking still comes back as a rejection, as from an async method.
    try {
      const key = this.#nextKey(options);
      const checked = checkedFormEntry({
        message,
        question,
        mentionsSecret: options?.mentionsSecret,
        allowVagueMessage: options?.allowVagueMessage,
      });
      const wish = options?.via === undefined ? AUTO : { via: options.via, proof: false };
      const route = this.#route(key, checked.question, wish);
      if (route.kind === 'inband') return this.#askOne(this.#formItem(key, checked)) as never;
      return pageItem(this.#facts, this.#engine, key, checked, route, NOT_A_CONFIRMATION).then((item) =>
        this.#askOne(item),
      ) as never;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  elicitMissing(args: object, options?: AskMissingOptions<Record<string, unknown>, string>): Promise<never> {
    return elicitMissing(this, args, options, this.#facts.argumentsSource) as Promise<never>;
  }

  async elicitAll(batch: Readonly<Record<string, BatchItem>>): Promise<never> {
    this.#asked++;
    if (Object.keys(batch).length === 0) throw new TypeError('ctx.elicitAll() needs at least one question.');
    const items: AskItem[] = [];
    // One at a time: a page opened for a question is journaled, in the order the questions come.
    for (const [key, entry] of Object.entries(batch)) items.push(await this.#batchItem(key, entry));
    const results = await this.#ask(askPoint(items, true));
    return Object.fromEntries(items.map((item, index) => [item.key, results[index]])) as never;
  }

  /** One entry of a batch: a form question takes the ladder like any other; the rest as declared. */
  #batchItem(key: string, entry: BatchItem): AskItem | Promise<AskItem> {
    const form = Array.isArray(entry)
      ? { message: entry[0], question: entry[1] }
      : (entry as { kind: string }).kind === 'form'
        ? (entry as unknown as Readonly<Record<string, unknown>>)
        : undefined;
    if (!form) return batchItems({ [key]: entry }, (name) => this.can(name))[0]!;
    const checked = checkedFormEntry(form);
    const route = this.#route(key, checked.question, AUTO);
    if (route.kind === 'inband') return this.#formItem(key, checked);
    return pageItem(this.#facts, this.#engine, key, checked, route, NOT_A_CONFIRMATION);
  }

  /** A form question shown by the client: lowered for its host, when a profile knows it. */
  #formItem(key: string, checked: ReturnType<typeof checkedFormEntry>): AskItem {
    const host = this.#facts.host;
    return host ? { kind: 'form', key, ...checked, host } : { kind: 'form', key, ...checked };
  }

  /** Where a form question goes: where the call asked it before when it replays, else the ladder. */
  #route(key: string, question: PreparedQuestion<unknown>, wish: RouteWish): FormRoute {
    const replayed = replayedRoute(this.#engine, key);
    if (replayed === 'inband') return INBAND;
    const facts = routeFacts(this.#facts, (mode) => this.can(mode));
    return routeForm(question, facts, replayed === 'page' ? { ...wish, via: 'page' } : wish);
  }

  async confirm(message: string, options?: ConfirmOptions): Promise<ConfirmOutcome> {
    const key = this.#nextKey(options);
    const proof = options?.proof === 'page';
    const checked = checkedFormEntry({
      message,
      question: ask.boolean({ title: options?.title ?? 'Confirm' }),
    });
    const route = this.#route(key, checked.question, { via: proof ? 'page' : 'auto', proof });
    const outcome = (await (route.kind === 'inband'
      ? this.#askOne(this.#formItem(key, checked))
      : pageItem(this.#facts, this.#engine, key, checked, route, { confirm: true, proof }).then((item) =>
          this.#askOne(item),
        ))) as ElicitOutcome<boolean>;
    return outcome.action === 'accept'
      ? { action: 'accept', confirmed: outcome.value === true }
      : { action: outcome.action, confirmed: false };
  }

  async elicitUrl(
    message: string,
    target: string | URL | FlowTarget,
    options?: ElicitOptions,
  ): Promise<never> {
    const key = this.#nextKey(options);
    const url = this.#kindFor('url');
    if (typeof target === 'string' || target instanceof URL) {
      const entry = {
        kind: 'url',
        message,
        url: String(target),
        elicitationId: options?.elicitationId,
        allowVagueMessage: options?.allowVagueMessage,
      };
      return this.#askOne(url.item(key, entry)) as never;
    }
    const kit = this.#facts.flows;
    if (!kit)
      throw new TypeError(
        'URL flows need createServer({ flows: { publicUrl, session, signIn } }) and server.flow(kind, page).',
      );
    const principal = this.#facts.user?.id;
    if (principal === undefined) {
      throw new ToolError(
        'This step needs a signed-in user, so it can only be done when the server knows who is calling ' +
          '(authenticate the HTTP endpoint, or set stdioUser for a local server).',
      );
    }
    // Created once per logical call: replay reads the same flow id from the journal.
    const id = await this.#engine.once(
      `flow:${key}:${target.flow}`,
      async () => (await kit.create(target.flow, principal, target.data ?? null)).id,
    );
    const flow = { id, kit, principal };
    const entry = {
      kind: 'url',
      message,
      url: kit.urlFor(id),
      flow,
      allowVagueMessage: options?.allowVagueMessage,
    };
    return this.#askOne(url.item(key, entry)) as never;
  }

  async answers(questions: Readonly<Record<string, BatchItem>>): Promise<never> {
    const items = batchItems(questions, (name) => this.can(name), this.#facts.host);
    return (await (this.#facts.guard ?? NO_GUARD_ROUND).answers(
      items,
      askPoint(items, true).fingerprint,
    )) as never;
  }

  data(): never {
    return (this.#facts.guard ?? NO_GUARD_ROUND).data as never;
  }

  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    return this.#engine.once(name, fn);
  }

  yieldRound(options?: { readonly afterMs?: number }): Promise<void> {
    try {
      const afterMs = options?.afterMs ?? DEFAULT_YIELD_MS;
      if (!Number.isFinite(afterMs) || afterMs < 0)
        throw new TypeError(`ctx.yieldRound() takes afterMs of 0 or more (got ${afterMs}).`);
      const position = ++this.#yields;
      const label = `ctx.yieldRound() #${position}`;
      return this.#engine
        .yieldRound(fingerprint('yield', String(position)), label, afterMs)
        .catch((error: unknown) => {
          if (error === SUSPEND) this.#notifications.stop();
          throw error;
        });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  runAsTask(): Promise<void> {
    return this.#facts.task.runAsTask();
  }

  closeStream(): void {
    this.#facts.sdk.http?.closeSSE?.();
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    this.#engine.progressed?.(progress, total);
    return sendProgress(this.#facts.sdk, this.#notifications, this.#detached(), progress, total, message);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return sendLog(this.#facts.sdk, this.#notifications, this.#detached(), level, data, logger);
  }

  /** The call became a task: its request is answered, there is no stream to send notifications on. */
  #detached(): boolean {
    return this.#facts.task.current !== undefined;
  }

  async sample(params: CreateMessageRequestParams, options?: ElicitOptions): Promise<never> {
    const key = this.#nextKey(options);
    return this.#askOne(this.#kindFor('sampling').item(key, { kind: 'sampling', params })) as never;
  }

  async roots(options?: ElicitOptions): Promise<never> {
    const key = this.#nextKey(options);
    return this.#askOne(this.#kindFor('roots').item(key, { kind: 'roots' })) as never;
  }
}

// Reading a method gives it bound to its ctx: taking ctx apart works as it did when ctx was an object
// of closures, and nothing stays per call (the bound function lives as long as whoever read it).
for (const name of Object.getOwnPropertyNames(CallContext.prototype)) {
  const method = Object.getOwnPropertyDescriptor(CallContext.prototype, name)?.value;
  if (name === 'constructor' || typeof method !== 'function') continue;
  Object.defineProperty(CallContext.prototype, name, {
    configurable: true,
    get(this: CallContext) {
      return (method as (...args: unknown[]) => unknown).bind(this);
    },
  });
}
