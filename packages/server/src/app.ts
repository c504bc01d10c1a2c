import type { AuthInfo, CacheHint } from '@modelcontextprotocol/server';
import type { HostTableOptions } from '@parley/core/hosts';
import { KeyRing, type SealSecret } from '@parley/core/seal';
import { HostDirectory } from './ask/call-host.js';
import { PendingQuestions } from './context/pending-questions.js';
import { WaitingReminders } from './context/waiting-progress.js';
import type { DirectToolCalls } from './direct-call-types.js';
import { FlowKit, type FlowsOptions } from './flows/flow-kit.js';
import { type Logger, stderrLogger } from './log.js';
import type { Middleware } from './middleware.js';
import type { OnceStore, OnceTimings } from './once/once-store.js';
import type { QuestionPagesOptions } from './pages/page-types.js';
import { type PageListenerStarter, QuestionPages } from './pages/question-pages.js';
import { PromptRegistry } from './registry/prompts.js';
import { ResourceRegistry } from './registry/resources.js';
import { ToolRegistry } from './registry/tools.js';
import type { SessionRouter } from './sessions/session-router.js';
import { nodeAead } from './state/node-aead.js';
import { StateCodec } from './state/state-codec.js';
import { ChangeHub } from './subscriptions/change-hub.js';
import { type TaskSettings, TaskStore } from './tasks/task-store.js';

/** The 2026-07-28 results that carry caching hints. */
export type CacheableMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'server/discover';

/** Caching hints by method. */
export type CacheHints = Partial<Record<CacheableMethod, CacheHint>>;

/** Options of {@link createServer}. */
export interface ServerOptions {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  /** Shown to clients in `initialize` / `server/discover`. */
  readonly instructions?: string;
  /** How `requestState` is sealed on 2026-07-28. */
  readonly state?: {
    /**
     * The key ring, sealing key first: `id:base64secret` pairs (comma-separated text) or a list.
     * Defaults to the `PARLEY_STATE_KEYS` environment variable, else a random key for this process
     * only (fine for stdio and a single process; a fleet must share keys).
     */
    readonly keys?: string | readonly SealSecret[];
    /** Lifetime of each round's state. Default 600 (10 minutes). */
    readonly ttlSeconds?: number;
    /** Largest state this server issues or accepts, in characters. Default 16384. */
    readonly maxChars?: number;
    /** Tolerated clock difference between replicas. Default 30. */
    readonly clockSkewSeconds?: number;
  };
  /**
   * Rounds of questions one call may take, on every era (on the 2025 eras each question, or each
   * batch of `ctx.elicitAll`, and each question asked again is a round). Default 20.
   */
  readonly maxRounds?: number;
  /** Invalid answers to one question before the call ends. Default 3. */
  readonly maxTries?: number;
  /** How long the server waits for a person on the 2025 eras. Default 600000 (10 minutes). */
  readonly questionTimeoutMs?: number;
  /**
   * How often a 2025-era call whose request carries a `progressToken` is sent
   * `notifications/progress` ("Waiting for your answer") while a question of it waits for the
   * person, so a client that resets its request timeout on progress (the TypeScript SDK's
   * `resetTimeoutOnProgress`) keeps the call however long the person takes. The first reminder
   * comes within a quarter of the period after the question. Default 20000 (the first within 5 s,
   * three within a 60 s client timeout); 0 sends none. A request without a `progressToken`
   * gets none: the protocol allows progress only for a token the client gave (see the README).
   */
  readonly waitingProgressMs?: number;
  /**
   * Host profiles (`@parley/core/hosts`): what each known MCP host (by its `clientInfo`) shows of a
   * form, so a question is lowered for it before it is sent (numbers as text for Codex, a
   * multi-select as yes/no fields, ...), its answer read back into your types, defaults filled only
   * where the host did not show them, and a question it cannot be shown sent to a page. Default: the
   * built-in profiles. `{ profiles }` adds your own (one with a built-in's `id` replaces it);
   * `{ builtIn: false }` drops the built-in ones; `false` treats every client as an unknown host
   * (every form sent as written). See the README, "Host profiles".
   */
  readonly hosts?: HostTableOptions | false;
  /** Who the verified user is, from a request's auth info. Default: `extra.sub`, else `clientId`. */
  readonly principal?: (authInfo: AuthInfo) => string | undefined;
  readonly log?: Logger;
  /**
   * URL flows: pages of this server that a URL question sends the person to, bound to the user who
   * made the call (see `server.flow()` and `ctx.elicitUrl(message, { flow })`).
   */
  readonly flows?: FlowsOptions;
  /**
   * Question pages: a form question the client cannot show in-band (it declared no forms, failed
   * `elicitation/create`, or cannot show this form on its revision), a secret (`ask.secret()`) and
   * a confirmation with proof are asked on a page of this server. On by default; `false` keeps
   * `ElicitationUnavailable` for clients that cannot show a form. See the README, "Reaching every client".
   */
  readonly questionPages?: QuestionPagesOptions | false;
  /**
   * The user a stdio connection acts for (stdio has no auth info: the person who launched the
   * process is the user). Needed for URL flows over stdio.
   */
  readonly stdioUser?: string;
  /**
   * Where `ctx.once` records what ran, so a side effect runs exactly once per call even when a client
   * re-sends a 2026-07-28 round or two rounds land on two replicas: `MemoryOnceStore` (one process),
   * `RedisOnceStore` (a fleet) or your own `OnceStore`. Without one, see the README's guarantee.
   */
  readonly once?: {
    readonly store: OnceStore;
    /** How long a run holds its claim (a crashed run's claim lapses after it). Default 60000. */
    readonly leaseMs?: number;
    /** How long a re-sent round waits for the run in progress before failing. Default 30000. */
    readonly waitMs?: number;
  };
  /**
   * Caching hints (`ttlMs`, `cacheScope`) for the cacheable 2026-07-28 results, by method; a result
   * that carries its own keeps them. Default `{ ttlMs: 0, cacheScope: 'private' }` (do not cache).
   *
   * @example
   * createServer({ name: 'catalogue', version: '1.0.0', cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } });
   */
  readonly cacheHints?: CacheHints;
  /** Tools that run as tasks (`task` in a tool's config): how long tasks are kept, polling, a per-user cap. */
  readonly tasks?: TaskSettings;
  /** 2025-era sessions in a fleet of replicas (see the README's "A fleet of replicas"). */
  readonly sessions?: {
    /**
     * Passes a request that reaches a replica not holding its session to the replica that does
     * (`RedisSessionRouter` from `@parley/server/redis`): no balancer affinity needed. Without one,
     * each replica serves only the sessions it opened, so the balancer must route each session's
     * requests back to the replica that opened it (see `idPrefix`).
     */
    readonly router?: SessionRouter;
    /**
     * Starts every session id this replica issues with `<idPrefix>.` (letters, digits, `_`, `-`;
     * at most 32), e.g. the replica's name, so a balancer can route a session's requests back to
     * the replica that opened it without shared state.
     */
    readonly idPrefix?: string;
  };
  /**
   * What the server declares (and serves the list requests of) even while nothing of that kind is
   * registered: for a server whose tools, prompts and resources come and go while it serves (a
   * gateway in front of servers that may connect late). By default each is declared once anything
   * of its kind is registered, when the session (or the 2026-07-28 endpoint) starts.
   */
  readonly declare?: readonly DeclarableCapability[];
  /** Clock, for tests. */
  readonly now?: () => number;
}

/** What {@link ServerOptions.declare} can declare up front. */
export type DeclarableCapability = 'tools' | 'prompts' | 'resources' | 'completions' | 'tasks';

/** The resolved, shared part of a server: registries, limits, the state codec. */
export class App {
  readonly info: { name: string; version: string; title?: string };
  readonly instructions: string | undefined;
  readonly cacheHints: CacheHints | undefined;
  readonly tools = new ToolRegistry();
  readonly prompts = new PromptRegistry();
  readonly resources = new ResourceRegistry();
  readonly maxRounds: number;
  readonly maxTries: number;
  readonly questionTimeoutMs: number;
  /** The host profiles clients are matched against. */
  readonly hosts: HostDirectory;
  /** Reminds clients of 2025-era calls whose questions wait (`waitingProgressMs`); `undefined` when off. */
  readonly waitingReminders: WaitingReminders | undefined;
  readonly log: Logger;
  readonly principalOf: (authInfo: AuthInfo | undefined) => string | undefined;
  readonly stdioUser: string | undefined;
  readonly flows: FlowKit | undefined;
  /** Question pages, unless the server turned them off. */
  readonly pages: QuestionPages | undefined;
  /** The `ctx.once` store and its timings, when the server was given one. */
  readonly once: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;
  /** What `server.use()` added, outermost first. */
  readonly middleware: Middleware[] = [];
  /** What serves 2026-07-28 tool calls before Parley's own handling (`server.directToolCalls`). */
  directToolCalls: DirectToolCalls | undefined;
  /** Passes 2025-era requests to the replica holding their session, when the server has one. */
  readonly sessionRouter: SessionRouter | undefined;
  /** What every 2025-era session id this replica issues starts with (`''` for nothing). */
  readonly sessionIdPrefix: string;
  /** 2025-era questions sent and not answered yet, across every connection. */
  readonly pendingQuestions = new PendingQuestions();
  /** Changes of the lists and of resources, for the connections that listen. */
  readonly changes = new ChangeHub();
  /** The tasks this process runs. */
  readonly tasks: TaskStore;
  readonly #options: ServerOptions;
  readonly #declared: ReadonlySet<DeclarableCapability>;
  #codec: Promise<StateCodec> | undefined;
  #ring: KeyRing | undefined;

  /**
   * @param startPageListener starts the loopback listener that serves question pages when nothing
   *   else does (stdio); the serving layer provides it.
   */
  constructor(options: ServerOptions, startPageListener?: PageListenerStarter) {
    if (!options.name || !options.version) throw new TypeError('createServer() needs a name and a version.');
    this.#options = options;
    this.#declared = new Set(options.declare ?? []);
    this.info = {
      name: options.name,
      version: options.version,
      ...(options.title && { title: options.title }),
    };
    this.instructions = options.instructions;
    this.cacheHints = options.cacheHints;
    this.maxRounds = positive(options.maxRounds, 20, 'maxRounds');
    this.maxTries = positive(options.maxTries, 3, 'maxTries');
    this.questionTimeoutMs = positive(options.questionTimeoutMs, 600_000, 'questionTimeoutMs');
    this.hosts = new HostDirectory(options.hosts);
    const remindEvery = options.waitingProgressMs ?? 20_000;
    this.waitingReminders = remindEvery === 0 ? undefined : new WaitingReminders(remindEvery);
    this.log = options.log ?? stderrLogger;
    this.stdioUser = options.stdioUser;
    this.tasks = new TaskStore(options.tasks, options.now);
    this.sessionRouter = options.sessions?.router;
    const idPrefix = options.sessions?.idPrefix;
    if (idPrefix !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(idPrefix))
      throw new TypeError(
        `sessions.idPrefix takes 1 to 32 letters, digits, '_' or '-' (got ${JSON.stringify(idPrefix)}).`,
      );
    this.sessionIdPrefix = idPrefix === undefined ? '' : `${idPrefix}.`;
    this.flows = options.flows ? new FlowKit(options.name, options.flows, this.log, options.now) : undefined;
    const state = options.state ?? {};
    this.pages =
      options.questionPages === false
        ? undefined
        : new QuestionPages({
            server: this.info,
            options: options.questionPages ?? {},
            flows: options.flows,
            log: this.log,
            ring: () => this.keyRing(),
            stateTtlSeconds: positive(state.ttlSeconds, 600, 'state.ttlSeconds'),
            startListener: startPageListener,
            ...(options.now && { now: options.now }),
          });
    this.once = options.once && {
      store: options.once.store,
      timings: {
        leaseMs: positive(options.once.leaseMs, 60_000, 'once.leaseMs'),
        waitMs: positive(options.once.waitMs, 30_000, 'once.waitMs'),
        // A re-sent round can only come while its state is valid: keep each value that long.
        keepMs: (positive(state.ttlSeconds, 600, 'state.ttlSeconds') + (state.clockSkewSeconds ?? 30)) * 1000,
      },
    };
    const custom = options.principal;
    this.principalOf = (authInfo) => {
      if (!authInfo) return undefined;
      if (custom) return custom(authInfo);
      const sub = authInfo.extra?.sub;
      return typeof sub === 'string' && sub.length > 0 ? sub : authInfo.clientId || undefined;
    };
  }

  /** Whether the server offers `capability` now: something of it is registered, or it is declared up front. */
  declares(capability: DeclarableCapability): boolean {
    if (this.#declared.has(capability)) return true;
    switch (capability) {
      case 'tools':
        return this.tools.size > 0;
      case 'prompts':
        return this.prompts.size > 0;
      case 'resources':
        return this.resources.size > 0;
      case 'completions':
        return this.prompts.size > 0 || this.resources.listTemplates().length > 0;
      case 'tasks':
        return this.tools.runsTasks;
    }
  }

  /** The state codec, built on first use (deriving keys is asynchronous). */
  codec(): Promise<StateCodec> {
    this.#codec ??= this.#buildCodec();
    return this.#codec;
  }

  /** The key ring states are sealed with (question pages seal secret answers with it too). */
  async keyRing(): Promise<KeyRing> {
    await this.codec();
    return this.#ring!;
  }

  /** Whether states are sealed with a key made for this process only (known after the first codec use). */
  async usesEphemeralKey(): Promise<boolean> {
    await this.codec();
    return this.#ring?.ephemeral ?? true;
  }

  /**
   * The key ring this server was given (`state.keys`, else `PARLEY_STATE_KEYS`), sealing key first;
   * `undefined` when it has none (states are then sealed with a random key of this process).
   */
  sharedStateKeys(): readonly SealSecret[] | undefined {
    const configured = this.#options.state?.keys ?? process.env.PARLEY_STATE_KEYS;
    const secrets = typeof configured === 'string' ? KeyRing.parse(configured) : configured;
    return secrets && secrets.length > 0 ? secrets : undefined;
  }

  async #buildCodec(): Promise<StateCodec> {
    const state = this.#options.state ?? {};
    const secrets = this.sharedStateKeys();
    this.#ring =
      secrets !== undefined
        ? await KeyRing.create(secrets, { backend: nodeAead })
        : await KeyRing.ephemeral({ backend: nodeAead });
    return new StateCodec(this.#ring, {
      ttlSeconds: positive(state.ttlSeconds, 600, 'state.ttlSeconds'),
      maxChars: positive(state.maxChars, 16_384, 'state.maxChars'),
      clockSkewSeconds: state.clockSkewSeconds ?? 30,
      ...(this.#options.now && { now: this.#options.now }),
    });
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`${name} must be a positive number (got ${value}).`);
  return value;
}
