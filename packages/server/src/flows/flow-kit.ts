import { ToolError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Json } from '../state/round-state.js';
import { isFlowId, newFlowId } from './flow-id.js';
import type { FlowRecord, FlowSettlement, FlowStore, KeptValue } from './flow-types.js';
import { MemoryFlowStore } from './memory-store.js';
import { messagePage as htmlMessage } from './pages.js';

/** A refusal as the page's script reads it: `{ ok: false, title, message }`. */
function jsonMessage(status: number, title: string, message: string): Response {
  return new Response(JSON.stringify({ ok: false, title, message }), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** What a flow page can do with its flow. */
export interface FlowActions {
  /** Finishes the flow with a result the tool receives (never a credential). False if it was not pending. */
  complete(result: Json): Promise<boolean>;
  /** Ends the flow as failed; the tool call ends with `reason`. False if it was not pending. */
  fail(reason: string): Promise<boolean>;
}

/**
 * Serves one kind of flow page, after the kit verified that the browser's signed-in user is the
 * user who made the call. It receives every request under the flow's URL (GET to show, POST to act).
 */
export type FlowPage = (
  request: Request,
  flow: FlowRecord,
  actions: FlowActions,
) => Response | Promise<Response>;

/** Options of URL flows (`createServer({ flows })`). */
export interface FlowsOptions {
  /**
   * The origin (and optional base path) where people's browsers reach this server, e.g.
   * `https://mcp.example.com`. Defaults to the address `server.listen()` bound (right for loopback
   * development; behind a proxy or TLS terminator, set it).
   */
  readonly publicUrl?: string;
  /**
   * Who is signed in to this server's own site in the browser that sent `request` (e.g. from its
   * sign-in cookie). The browser's sign-in, not an MCP session: in Parley a session is always a
   * 2025 MCP session.
   */
  readonly session: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Where to send a browser nobody is signed in on; `returnTo` is the flow page URL to come back to. */
  readonly signIn: (returnTo: string) => string;
  /** Default: in memory (one process). A fleet shares a {@link RedisFlowStore}. */
  readonly store?: FlowStore;
  /** How long a flow link stays valid. Default 900 (15 minutes). */
  readonly ttlSeconds?: number;
  /** Path prefix of flow pages. Default `/connect`. */
  readonly path?: string;
  /**
   * Largest flow `data`, in bytes of JSON. Default 4096. The data often carries what the client
   * said about itself (its name), which a hostile client can make as large as it likes.
   */
  readonly maxDataBytes?: number;
  /** Pending flows one user may have at once. Default 10. */
  readonly maxPendingPerUser?: number;
  /**
   * Flows one user may hold at once, pending or done: a settled flow is kept until its link would
   * have expired, plus 15 minutes (so the link reads as used). Default five times `maxPendingPerUser`.
   */
  readonly maxKeptPerUser?: number;
}

/**
 * How one kit of flow pages is set up: the author's URL flows (`createServer({ flows })`), or the
 * server's own question pages. Without `session`, only capability flows can be created.
 */
export type FlowKitOptions = Omit<FlowsOptions, 'session' | 'signIn'> &
  Partial<Pick<FlowsOptions, 'session' | 'signIn'>>;

/** What a retry learns about a flow. */
export type FlowCheck =
  | { readonly status: 'done'; readonly result: Json }
  | { readonly status: 'pending' }
  | { readonly status: 'expired' }
  | { readonly status: 'failed'; readonly reason: string };

/** URL flows: created by a call, bound to its user, completed on a page of this server, read by the retry. */
export class FlowKit {
  readonly #server: string;
  readonly #options: FlowKitOptions;
  readonly #store: FlowStore;
  readonly #pages = new Map<string, FlowPage>();
  readonly #log: Logger;
  readonly #now: () => number;
  #base: string | undefined;
  readonly #path: string;
  /** Calls of this process waiting on a flow, woken when a page of this process settles it. */
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(server: string, options: FlowKitOptions, log: Logger, now: () => number = Date.now) {
    this.#server = server;
    this.#options = options;
    this.#store = options.store ?? new MemoryFlowStore({ now });
    this.#log = log;
    this.#now = now;
    if (options.publicUrl !== undefined) this.#base = checkedBase(options.publicUrl);
    this.#path = `/${(options.path ?? '/connect').replace(/^\/+|\/+$/g, '')}`;
  }

  /** Called by `listen()`: the bound address becomes the public URL unless one was configured. */
  useDefaultOrigin(origin: string): void {
    this.#base ??= checkedBase(origin);
  }

  get store(): FlowStore {
    return this.#store;
  }

  /** Whether this kit can tell who is signed in to the browser (and so bind a flow to a user). */
  get checksPerson(): boolean {
    return this.#options.session !== undefined && this.#options.signIn !== undefined;
  }

  /** Whether the public URL of the pages is known yet (configured, or set by `listen()`). */
  get hasOrigin(): boolean {
    return this.#base !== undefined;
  }

  register(kind: string, page: FlowPage): void {
    if (this.#pages.has(kind))
      throw new TypeError(`A flow page for ${JSON.stringify(kind)} is already registered.`);
    this.#pages.set(kind, page);
  }

  /**
   * Creates a pending flow for `principal`; throws when no page serves `kind`. A `capability` flow
   * is opened by whoever holds its link (`principal` is then only the scope its pending cap counts
   * against); any other is opened only by the browser whose signed-in user is `principal`.
   */
  async create(
    kind: string,
    principal: string,
    data: Json,
    options: { readonly capability?: boolean; readonly maxPending?: number; readonly maxKept?: number } = {},
  ): Promise<FlowRecord> {
    if (!options.capability && !this.checksPerson) {
      throw new TypeError(
        'A flow bound to its user needs a way to tell who is signed in to the browser: set session and signIn.',
      );
    }
    if (!this.#pages.has(kind)) {
      throw new TypeError(
        `No flow page is registered for ${JSON.stringify(kind)}; add server.flow(${JSON.stringify(kind)}, page).`,
      );
    }
    const maxData = this.#options.maxDataBytes ?? 4096;
    const size = new TextEncoder().encode(JSON.stringify(data)).byteLength;
    if (size > maxData) {
      throw new ToolError(
        `This step's data is ${size} bytes, over the ${maxData}-byte limit for a sign-in link; a client name or other text in it is too long.`,
      );
    }
    const now = this.#now();
    const flow: FlowRecord = {
      id: newFlowId(),
      kind,
      principal,
      server: this.#server,
      data,
      createdAt: now,
      expiresAt: now + (this.#options.ttlSeconds ?? 900) * 1000,
      status: 'pending',
      ...(options.capability && { capability: true as const }),
    };
    const maxPending = options.maxPending ?? this.#options.maxPendingPerUser ?? 10;
    const maxKept = options.maxKept ?? this.#options.maxKeptPerUser ?? maxPending * 5;
    if (!(await this.#store.create(flow, maxPending, maxKept))) {
      throw new ToolError(
        `You already have ${maxPending} links waiting to be opened, or ${maxKept} kept in all (a used link is ` +
          'kept a while, so it reads as used); finish or cancel one, or try again in a few minutes.',
      );
    }
    return flow;
  }

  /** The page URL for a flow: this server's own origin and the opaque id, nothing else. */
  urlFor(id: string): string {
    return `${this.#origin()}${this.#path}/${id}`;
  }

  #origin(): string {
    if (this.#base === undefined) {
      throw new TypeError(
        'URL flows need flows.publicUrl when the server is not served with server.listen().',
      );
    }
    return this.#base;
  }

  /** What the retry of a call should do about its flow. */
  async check(id: string, principal: string): Promise<FlowCheck> {
    const flow = await this.#store.get(id);
    if (!flow || flow.server !== this.#server || flow.principal !== principal) return { status: 'expired' };
    if (flow.status === 'done') return { status: 'done', result: flow.result ?? null };
    if (flow.status === 'failed')
      return { status: 'failed', reason: flow.reason ?? 'the page ended the flow' };
    if (flow.status === 'cancelled' || flow.expiresAt <= this.#now()) return { status: 'expired' };
    return { status: 'pending' };
  }

  /** Ends a flow the person declined or cancelled, so its link stops working. */
  async cancel(id: string): Promise<void> {
    await this.#store.settle(id, { status: 'cancelled' });
  }

  /**
   * Settles a flow and wakes the calls of this process waiting on it. `kept`: a value kept with the
   * settlement, written only when it wins (atomically, where the store can).
   */
  async settle(id: string, settlement: FlowSettlement, kept?: KeptValue): Promise<boolean> {
    const store = this.#store;
    let settled: boolean;
    if (!kept) settled = await store.settle(id, settlement);
    else if (store.settleKeeping) settled = await store.settleKeeping(id, settlement, kept);
    else {
      settled = await store.settle(id, settlement);
      if (settled) await store.putValue?.(kept.key, kept.value, kept.expiresAt);
    }
    if (settled) for (const wake of this.#waiters.get(id) ?? []) wake();
    return settled;
  }

  /**
   * Waits until the flow leaves `pending` (2025 eras, where the server waits on the session): at
   * once when a page of this process settles it, else by looking every 250 ms (another replica's
   * page).
   */
  async waitFor(id: string, principal: string, signal: AbortSignal, timeoutMs: number): Promise<FlowCheck> {
    const deadline = this.#now() + timeoutMs;
    for (;;) {
      const check = await this.check(id, principal);
      if (check.status !== 'pending') return check;
      if (signal.aborted) throw signal.reason ?? new Error('The call was cancelled.');
      if (this.#now() >= deadline) return { status: 'expired' };
      await this.#nextLook(id, signal);
    }
  }

  #nextLook(id: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(id);
      if (!waiters) {
        waiters = new Set();
        this.#waiters.set(id, waiters);
      }
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(wake, 250);
      waiters.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  /** Serves flow pages; `undefined` when the request is not for one. */
  async handle(request: Request): Promise<Response | undefined> {
    // A page's script asks for JSON; a browser navigating gets a page.
    const wantsJson = /application\/json/.test(request.headers.get('accept') ?? '');
    const messagePage = (status: number, title: string, message: string) =>
      wantsJson ? jsonMessage(status, title, message) : htmlMessage(status, title, message);
    const url = new URL(request.url);
    const prefix = `${new URL(this.#origin()).pathname.replace(/\/+$/, '')}${this.#path}/`;
    if (!url.pathname.startsWith(prefix)) return undefined;
    const id = url.pathname.slice(prefix.length).split('/')[0] ?? '';
    const gone = () =>
      messagePage(
        404,
        'This link does not work',
        'The link is not valid, or it expired. Go back to your app and ask again.',
      );
    if (!isFlowId(id)) return gone();
    const flow = await this.#store.get(id);
    if (!flow || flow.server !== this.#server) return gone();
    if (flow.status !== 'pending') {
      return messagePage(
        410,
        'This link was already used',
        'Each link works once. Go back to your app and ask again if you need to.',
      );
    }
    if (flow.expiresAt <= this.#now())
      return messagePage(410, 'This link expired', 'Go back to your app and ask again.');

    const page = this.#pages.get(flow.kind);
    if (!page) return gone();
    const actions: FlowActions = {
      complete: (result) => this.settle(id, { status: 'done', result }),
      fail: (reason) => this.settle(id, { status: 'failed', reason }),
    };
    if (flow.capability) return page(request, flow, actions);

    // The phishing defence: before anything else, the browser's own signed-in user must be the user
    // who made the call. The check reads this server's own sign-in, never anything in the URL.
    const { session: signedIn, signIn } = this.#options;
    const user = signedIn && signIn ? await signedIn(request) : undefined;
    if (user === undefined) {
      if (!signIn) return gone();
      return new Response(null, {
        status: 303,
        headers: { location: signIn(this.urlFor(id)), 'cache-control': 'no-store' },
      });
    }
    if (user !== flow.principal) {
      this.#log('warn', `Refused a flow page: the signed-in user is not the user who started the flow.`, {
        flow: `${id.slice(0, 6)}…`,
        kind: flow.kind,
      });
      return messagePage(
        403,
        'This link is for another account',
        'The link was created for a different account than the one signed in here, so nothing was done. If someone sent you this link, do not use it.',
      );
    }
    return page(request, flow, actions);
  }
}

function checkedBase(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError(`flows.publicUrl must be an http(s) URL (got ${url}).`);
  }
  return url.replace(/\/+$/, '');
}
