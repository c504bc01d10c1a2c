import { randomBytes } from 'node:crypto';
import type { PreparedQuestion } from '@parley/core/form';
import type { KeyRing } from '@parley/core/seal';
import { AuthorError, ToolError } from '../errors.js';
import { type FlowCheck, FlowKit, type FlowsOptions } from '../flows/flow-kit.js';
import type { FlowStore } from '../flows/flow-types.js';
import { MemoryFlowStore } from '../flows/memory-store.js';
import type { Logger } from '../log.js';
import type { Json } from '../state/round-state.js';
import { pageAsset } from './page-assets.js';
import { type PageServer, serverLabel } from './page-document.js';
import type { PageAnswer, PageQuestion, QuestionFlowData, QuestionPagesOptions } from './page-types.js';
import {
  decodeParkedCall,
  encodeParkedCall,
  type ParkedCall,
  type ParkedCallKey,
  parkedCallKey,
} from './parked-calls.js';
import { questionPage } from './question-page.js';
import { openAnswer } from './sealed-answers.js';

/** Starts a loopback HTTP listener serving `handle` (stdio servers, and endpoints mounted without a public URL). */
export type PageListenerStarter = (
  handle: (request: Request) => Promise<Response | undefined>,
  where: { readonly host: string; readonly port: number },
) => Promise<{ readonly origin: string; close(): Promise<void> }>;

/** What question pages need of the server. */
export interface QuestionPagesDeps {
  readonly server: PageServer;
  readonly options: QuestionPagesOptions;
  /** The author's URL flows, whose public URL, store and sign-in hooks pages share by default. */
  readonly flows: FlowsOptions | undefined;
  readonly log: Logger;
  readonly ring: () => Promise<KeyRing>;
  /** How long a round's state lives: a sealed answer is kept that much past its page's expiry. */
  readonly stateTtlSeconds: number;
  readonly startListener: PageListenerStarter | undefined;
  readonly now?: () => number;
}

/** A page opened for a question. */
export interface OpenedPage {
  readonly id: string;
  readonly url: string;
}

const KIND = 'question';

/**
 * The memory stores of this process a call was ever parked in, by whichever pages share them. A
 * memory store is this process's alone: until a call is parked in it there is nothing to look up.
 * Any other store may hold calls another replica parked, and is always asked.
 */
const parkedInMemory = new WeakSet<FlowStore>();

/**
 * Question pages: a form question the client cannot show in-band is asked on a page of this
 * server (a URL-mode question that points at it, or a link in the call's result). Each page is a
 * flow: single use, expiring, bound to the user who asked (or, where there is no user to check,
 * a capability link). Pages also keep parked calls and sealed secret answers in their store.
 */
export class QuestionPages {
  readonly #kit: FlowKit;
  readonly #deps: QuestionPagesDeps;
  readonly #store: FlowStore;
  readonly #path: string;
  #listener: Promise<{ readonly origin: string; close(): Promise<void> }> | undefined;

  constructor(deps: QuestionPagesDeps) {
    this.#deps = deps;
    const { options, flows } = deps;
    this.#store = options.store ?? flows?.store ?? new MemoryFlowStore(deps.now ? { now: deps.now } : {});
    this.#path = `/${(options.path ?? '/parley/questions').replace(/^\/+|\/+$/g, '')}`;
    const person = options.person ?? flows?.session;
    const signIn = options.signIn ?? flows?.signIn;
    const publicUrl = options.publicUrl ?? flows?.publicUrl;
    this.#kit = new FlowKit(
      deps.server.name,
      {
        store: this.#store,
        path: this.#path,
        ttlSeconds: options.ttlSeconds ?? 900,
        maxDataBytes: 16 * 1024,
        maxPendingPerUser: options.maxPendingPerUser ?? 20,
        maxKeptPerUser: options.maxKeptPerUser ?? 100,
        ...(publicUrl !== undefined && { publicUrl }),
        ...(person && signIn && { session: person, signIn }),
      },
      deps.log,
      deps.now,
    );
    this.#kit.register(
      KIND,
      questionPage({
        server: deps.server,
        log: deps.log,
        ring: deps.ring,
        settleSealed: (id, settled, token, expiresAt) => {
          this.#values(); // a store that keeps no values cannot keep the answer: say so, not 410
          return this.#kit.settle(
            id,
            { status: 'done', result: settled as unknown as Json },
            {
              key: `answer:${id}`,
              value: token,
              expiresAt,
            },
          );
        },
        sealedGraceMs: deps.stateTtlSeconds * 1000,
        urlFor: (id) => this.#kit.urlFor(id),
        assetsBase: () => `${this.#kit.urlFor('assets')}`,
        publicOrigin: () => new URL(this.#kit.urlFor('x')).origin,
      }),
    );
  }

  /** The server's name as people know it (its title, else its name): pages say who asks. */
  get asker(): string {
    return serverLabel(this.#deps.server);
  }

  /** The server's name, as sealed states are bound to it. */
  get serverName(): string {
    return this.#deps.server.name;
  }

  /** Whether pages can tell who is signed in to the browser (and so be bound to a user). */
  get checksPerson(): boolean {
    return this.#kit.checksPerson;
  }

  /** Whether a page may be answered by whoever holds its link when its call's user cannot be checked. */
  get linkHolderMayAnswer(): boolean {
    return this.#deps.options.linkHolderMayAnswer === true;
  }

  /** Whether an anonymous call that can carry no resume token may park by its address (see the option). */
  get anonymousByAddress(): boolean {
    return this.#deps.options.anonymousByAddress === true;
  }

  /** Called by `listen()`: the bound address serves pages unless a public URL was configured. */
  useDefaultOrigin(origin: string): void {
    this.#kit.useDefaultOrigin(origin);
  }

  /** Serves question pages and their assets; `undefined` when the request is not for one. */
  async handle(request: Request): Promise<Response | undefined> {
    if (!this.#kit.hasOrigin) return undefined;
    const url = new URL(request.url);
    const assets = new URL(this.#kit.urlFor('assets')).pathname;
    if (url.pathname.startsWith(`${assets}/`) && (request.method === 'GET' || request.method === 'HEAD')) {
      return pageAsset(url.pathname.slice(assets.length + 1));
    }
    return this.#kit.handle(request);
  }

  /** Opens a page for a question; its link is what the person gets. */
  async open(question: PageQuestion): Promise<OpenedPage> {
    await this.#ensureOrigin();
    const { who } = question;
    const data: QuestionFlowData = {
      v: 1,
      message: question.message,
      schema: question.question.schema,
      secretFields: question.question.secretFields,
      confirm: question.confirm,
      call: question.call,
      after: question.after,
      ...(question.sayFinished === true && { sayFinished: true }),
      csrf: randomBytes(24).toString('base64url'),
      ...(question.binding !== undefined && { binding: question.binding }),
    };
    const anonymous = who.principal === ANONYMOUS;
    const maxPending = this.#deps.options.maxPendingAnonymous ?? 200;
    const flow = await this.#kit.create(KIND, who.principal, data as unknown as Json, {
      capability: who.capability,
      ...(anonymous && { maxPending, maxKept: maxPending * 5 }),
    });
    return { id: flow.id, url: this.#kit.urlFor(flow.id) };
  }

  /** The page's link (its id is journaled; the link follows from it). */
  urlFor(id: string): string {
    return this.#kit.urlFor(id);
  }

  /** The flow kit behind the pages (an engine watches a page's flow through it). */
  get kit(): FlowKit {
    return this.#kit;
  }

  /** Where a page stands, for the call that opened it. */
  check(id: string, principal: string): Promise<FlowCheck> {
    return this.#kit.check(id, principal);
  }

  /**
   * What the person answered on a page, checked with the question's own rules. A sealed answer
   * (it holds a secret) is opened from the store; it is gone once its call ended.
   */
  async answerOf(
    id: string,
    settled: Json,
    question: PreparedQuestion<unknown>,
    binding: string | undefined,
  ): Promise<{ action: 'accept'; value: unknown } | { action: 'decline' } | { action: 'cancel' }> {
    const answer = settled as unknown as PageAnswer;
    if (answer.action === 'decline' || answer.action === 'cancel') return { action: answer.action };
    // A confirmation with proof counts only for the call it was asked for.
    if (binding !== undefined && answer.binding !== binding)
      throw new ToolError('This confirmation was given for another call, so it does not count. Call again.');
    let content: unknown;
    if ('sealed' in answer) {
      const token = await this.#values().getValue(`answer:${id}`);
      content =
        token === undefined
          ? undefined
          : await openAnswer(await this.#deps.ring(), this.#deps.server.name, id, token);
      if (content === undefined)
        throw new ToolError(
          'The answer given on the page is no longer kept (it is erased when its call ends, or after it expires). Call again.',
        );
    } else content = answer.content;
    const parsed = question.parse(content);
    if (!parsed.ok)
      throw new ToolError('The answer given on the page does not fit the question any more. Call again.');
    return { action: 'accept', value: parsed.value };
  }

  /** Erases sealed answers (their call ended). */
  async erase(ids: Iterable<string>): Promise<void> {
    const values = this.#store.deleteValue ? this.#values() : undefined;
    if (!values) return;
    await Promise.all([...ids].map((id) => values.deleteValue(`answer:${id}`)));
  }

  /** Ends a page the person declined or cancelled at the consent step, so its link stops working. */
  cancel(id: string): Promise<void> {
    return this.#kit.cancel(id);
  }

  /** Keeps a call parked while the person answers on a page, for as long as a page lives. */
  async park(key: ParkedCallKey, call: ParkedCall): Promise<void> {
    const ttlMs = (this.#deps.options.ttlSeconds ?? 900) * 1000;
    const now = (this.#deps.now ?? Date.now)();
    if (this.#store instanceof MemoryFlowStore) parkedInMemory.add(this.#store);
    await this.#values().putValue(parkedCallKey(key), encodeParkedCall(call), now + ttlMs);
  }

  /**
   * Whether a parked call could be waiting: false only when the store is this process's memory
   * and nothing was parked in it, so a call's first round skips the lookup (and its digest).
   */
  get mayHoldParked(): boolean {
    return !(this.#store instanceof MemoryFlowStore) || parkedInMemory.has(this.#store);
  }

  /**
   * Takes a parked call back (it is kept no longer: a parked call resumes once, and of retries that
   * race, one resumes it: atomically where the store can take a value).
   */
  async unpark(key: ParkedCallKey): Promise<ParkedCall | undefined> {
    const values = this.#values();
    const storeKey = parkedCallKey(key);
    const take = this.#store.takeValue?.bind(this.#store);
    let text: string | undefined;
    if (take) text = await take(storeKey);
    else {
      text = await values.getValue(storeKey);
      if (text !== undefined) await values.deleteValue(storeKey);
    }
    return text === undefined ? undefined : decodeParkedCall(text);
  }

  /** How long a parked call's state is sealed for (it outlives a round: it waits for the page). */
  get parkedTtlSeconds(): number {
    return this.#deps.options.ttlSeconds ?? 900;
  }

  async close(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) await (await listener.catch(() => undefined))?.close();
  }

  #values(): Required<Pick<FlowStore, 'putValue' | 'getValue' | 'deleteValue'>> {
    const store = this.#store;
    if (!store.putValue || !store.getValue || !store.deleteValue) {
      throw new AuthorError(
        'This flow store keeps no values (putValue, getValue, deleteValue), which question pages need for ' +
          'secrets and for calls waiting on a page: use MemoryFlowStore or RedisFlowStore, or add them to yours.',
      );
    }
    return store as Required<Pick<FlowStore, 'putValue' | 'getValue' | 'deleteValue'>>;
  }

  /** Starts the loopback listener the first time a page is needed and nothing else serves pages. */
  async #ensureOrigin(): Promise<void> {
    if (this.#kit.hasOrigin) return;
    const start = this.#deps.startListener;
    if (!start)
      throw new AuthorError(
        'Question pages need questionPages.publicUrl when the server is not served with server.listen().',
      );
    this.#listener ??= start((request) => this.handle(request), {
      host: this.#deps.options.loopback?.host ?? '127.0.0.1',
      port: this.#deps.options.loopback?.port ?? 0,
    });
    const { origin } = await this.#listener;
    this.#kit.useDefaultOrigin(origin);
  }
}

/** The scope of pages opened for anonymous calls over HTTP (one pool, with its own cap). */
export const ANONYMOUS = 'anonymous';
